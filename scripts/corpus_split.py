#!/usr/bin/env python3
"""Which side of the page split a source falls on (issue 21, from round 7 on): `train` (knowledge-base authors may read
and cite it) or `heldout` (reserved for the collectors of a held-out corpus; authors do not open it). A third of the
pages are held out (sha1 of the page's key mod 3 == 0), so a held-out set measures what authors wrote from the other
pages of the same kinds (tests/fixtures/corpus/heldout15/README.md).
Usage: scripts/corpus_split.py URL_OR_OWNER/REPO:PATH [...]   (prints `heldout` or `train`, the key, and `used` where
       this checkout already uses the page: a corpus excerpt's source or a URL in data/, docs/ or tests/, and
       `versioned` for a vendor document published per release and language: hiascend.com, support.huawei.com, whose
       other copies have keys of their own; its forum threads are single pages)
       scripts/corpus_split.py --used   (every key this checkout uses, one a line: what a collector must not take)
The key is the page, not its language or branch: github blob/tree URLs and `owner/repo:path` reduce to
owner/repo + the file's stem without language suffixes (faq.md, faq_zh.md, source_zh_cn/faq.md share a side);
a GitHub issue/PR/discussion reduces to owner/repo/NUMBER; any other URL to its host+path, lowercased."""
import hashlib, re, sys

def key(src):
    s = src.strip().rstrip("/")
    s = re.sub(r"[#?].*$", "", s)
    m = re.match(r"(?:https?://)?(?:www\.)?github\.com/([^/]+)/([^/]+)/(?:blob|tree|raw)/[^/]+/(.+)$", s) \
        or re.match(r"(?:https?://)?raw\.githubusercontent\.com/([^/]+)/([^/]+)/[^/]+/(.+)$", s) \
        or re.match(r"([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+):(.+)$", s)
    if m:
        owner, repo, path = m.groups()
        stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
        stem = re.sub(r"([._-](zh|cn|en|zh[_-]cn|zh[_-]hans|english|chinese))+$", "", stem)
        return f"{owner.lower()}/{repo.lower()}:{stem}"
    m = re.match(r"(?:https?://)?(?:www\.)?github\.com/([^/]+)/([^/]+)/(?:issues|pull|discussions)/(\d+)", s)
    if m:
        return f"{m.group(1).lower()}/{m.group(2).lower()}/{m.group(3)}"
    s = re.sub(r"^https?://(www\.)?", "", s).lower()
    return s

# A vendor's versioned documentation (hiascend.com, support.huawei.com): one document is published under every release
# and in two languages, each its own URL and so its own key and side; the knowledge-base authors may have read another
# copy of a held-out page. A collector of an unseen set skips these (the third column says `versioned`).
_VERSIONED_DOCS = re.compile(r"(?:https?://)?(?:www\.)?(?:hiascend\.com|support\.huawei\.com)/(?!forum)", re.I)


def versioned(src):
    """Whether the page is one copy of a vendor document published per release and language."""
    return _VERSIONED_DOCS.match(src.strip()) is not None


def side(src):
    return "heldout" if int(hashlib.sha1(key(src).encode()).hexdigest(), 16) % 3 == 0 else "train"

def used_keys(repo=None):
    """The keys of every page this checkout already uses: each corpus excerpt's `#% source:` and every URL in data/,
    docs/ and tests/ (a page one of them uses is seen, whatever its side)."""
    import os
    repo = repo or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    url = re.compile(r"https?://[^\s\"'<>)\]]+")
    keys = set()
    for root in ("data", "docs", "tests"):
        for folder, _, files in os.walk(os.path.join(repo, root)):
            for name in files:
                try:
                    with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                        text = f.read()
                except OSError:
                    continue
                keys.update(key(u.rstrip(".,;`")) for u in url.findall(text))
    return keys


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: corpus_split.py URL_OR_OWNER/REPO:PATH ... | --used")
    if sys.argv[1:] == ["--used"]:
        print("\n".join(sorted(used_keys())))
        sys.exit(0)
    used = used_keys()
    for a in sys.argv[1:]:
        print(side(a), key(a), *(["used"] if key(a) in used else []), *(["versioned"] if versioned(a) else []),
              sep="\t")
