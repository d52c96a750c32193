#!/usr/bin/env python3
"""Which side of the page split a source falls on (issue 21, from round 7 on): `train` (knowledge-base authors may read
and cite it) or `heldout` (reserved for the collectors of a held-out corpus; authors do not open it). A third of the
pages are held out (sha1 of the page's key mod 3 == 0), so a held-out set measures what authors wrote from the other
pages of the same kinds (tests/fixtures/corpus/heldout15/README.md).
Usage: scripts/corpus_split.py URL_OR_OWNER/REPO:PATH [...]   (prints `heldout` or `train`, then the key)
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

def side(src):
    return "heldout" if int(hashlib.sha1(key(src).encode()).hexdigest(), 16) % 3 == 0 else "train"

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: split.py URL_OR_OWNER/REPO:PATH ...")
    for a in sys.argv[1:]:
        print(side(a), key(a), sep="\t")
