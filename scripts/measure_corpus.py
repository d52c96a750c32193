#!/usr/bin/env python3
"""Measure `triage` on the corpus of real log excerpts (tests/fixtures/corpus/{heldout,tune}).

    python scripts/measure_corpus.py                 # the held-out half (never tuned on)
    python scripts/measure_corpus.py --split tune    # the half signatures were written against
    python scripts/measure_corpus.py --split all --json
    python scripts/measure_corpus.py --dir /work/hidden/h19a /work/hidden/h19b --summary   # a hidden set, figures only

Each excerpt is a file of real lines copied from a public issue, with a header of `#% key: value` lines
(stripped before triage sees the file, so line numbers are the excerpt's own):

    #% source: https://github.com/OWNER/REPO/issues/N
    #% expect: fault            (or: clean)
    #% fault: REGEX             (what a correct answer is about, matched case-insensitively
                                 against a reported problem's id and English title)

The header was written when the excerpt was collected, before the signatures that now match it.
Reported, in the terms of issue 21's "Done when" line:

- specific fault named: faulty excerpts where a problem that is not a wrapper (class `wrapper`, such
  as a bare "CANN reported an error code" entry) matches the `fault` regex;
- peer id the line does not support: files where a problem carries an ascend-fd id whose own rule
  (its `all_of` alternatives or `regex` in shared/reference/ascend_fd_kb_facts.json) holds on none of
  the lines that problem matched;
- FAIL from an ordinary line: problems of severity fail whose matched lines all look ordinary (no
  error word, code or level, and none the next line of an exception's message, `triage.lines.Fold.follows`),
  plus any FAIL in an excerpt labelled clean;
- unexplained errors: error-looking lines (an ERROR/E/F level, a Python `...Error:`/`Exception:`,
  `Segmentation fault`, `core dumped`, `Killed`) that no reported problem matched, and whether triage
  lists each of them in `unexplained_errors` (first occurrences, two lines counted once where triage's own
  key, `triage.lines.error_key`, makes them one: numbers aside). A bare `Traceback (most recent call last):` header is not one:
  issue 21 asks for a traceback's tail, and triage lists the tail (the `...Error:` line), not the header. Nor is a
  line triage folds into a traceback (`triage.lines.error_units`, its one decision: a logger-prefixed traceback's
  header, frames, source lines and markers, the exception message's next lines, a blank prefixed line): the
  traceback is one error line, its exception line (or its last frame when the excerpt stops first).

Exit status 0; `--floor` files (tests/triage/test_corpus.py) turn figures into checks.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shutil
import sys
import tempfile
from typing import Dict, List, Optional

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

CORPUS = os.path.join(REPO, "tests", "fixtures", "corpus")
SPLITS = ("heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17", "heldout18", "heldout19", "heldout20", "heldout21", "heldout22", "heldout23", "heldout24", "heldout25", "heldout26", "heldout27", "heldout28", "heldout29", "heldout30", "heldout31", "heldout32", "tune", "tune2")
FACTS_CANDIDATES = [os.path.join(REPO, "..", "shared", "reference", "ascend_fd_kb_facts.json"),
                    os.path.join(REPO, "..", "..", "shared", "reference", "ascend_fd_kb_facts.json"),
                    "/work/shared/reference/ascend_fd_kb_facts.json"]

# An ordinary line: none of these. Words of failure, a CANN error code, an error level, a return code, glibc's heap
# and libstdc++'s terminate messages.
ERROR_WORD = re.compile(
    r"(?i)(error|errno|\berr\b|fail|exception|fatal|abort|time ?out|timed out|segmentation fault|sigsegv|"
    r"core dumped|\bkilled\b|traceback|can ?not|can't|not (found|supported|exist)|invalid|refused|unable|"
    r"\bnan\b|\binf\b|lost|stuck|abnormal|denied|panic|out of memory|\boom\b|\bret(code)?\s*[=:]?\s*-?[1-9]|"
    # a non-zero exit status is a return code too (Go's exec.ExitError 'exit status 203', a shell's 'exit code 1'), and
    # ENOENT's strerror text an errno ('open /dev/davinci3: no such file or directory')
    r"\bexit (status|code):? -?[1-9]|no such file or directory|"
    # bash's job status for a process a resource limit's signal ended (SIGXFSZ, SIGXCPU), as 'Killed' for SIGKILL
    r"(file size|cpu time) limit exceeded|"
    # bash's refusal of an unset variable under `set -u` ('run.sh: line 6: RANK_ID: unbound variable')
    r"unbound variable|"
    r"unsupported|no supported|E[0-9A-Z][0-9]{4}\b|"
    # glibc's heap checks and libstdc++'s terminate name no error word: 'double free or corruption (!prev)'
    r"double free|corrupt(ed|ion)|invalid pointer|terminate called|"
    # the linker's and the loader's: 'libruntime.so: undefined reference to `drvStreamIdFree'', 'undefined symbol: X'
    r"undefined (reference|symbol)|"
    # the NVIDIA kernel driver's fault reports: 'NVRM: Xid (PCI:0000:06:00): 79, GPU has fallen off the bus.'
    r"\bNVRM: Xid\b|fallen off the bus|"
    # ...and its probe's ('NVRM: The NVIDIA probe routine was not called for 3 device(s).', 'NVRM: No NVIDIA graphics
    # adapter probed!': the driver bound no GPU)
    r"probe routine was not called|\bNo NVIDIA graphics adapter\b|"
    # a reader's report of input cut short ('gzip: stdin: unexpected end of file', 'tar: Unexpected EOF in archive'),
    # and git's refusal of a subcommand it does not have ("git: 'lfs' is not a git command. See 'git --help'.")
    r"unexpected (end of file|eof)\b|is not a git command|"
    # a decompressor's refusal of input in another format ('gzip: stdin: not in gzip format', 'bzip2: (stdin) is not a
    # bzip2 file.', 'xz: (stdin): File format not recognized'): each prints it only when it stops on that input
    r"\bnot in gzip format\b|\bis not a bzip2 file\b|\bFile format not recognized\b|"
    # a version check's refusal ('The NVIDIA driver on your system is too old (found version 6050).'), and a refusal
    # said as 'rejected' as 'refused' and 'denied' are (git's ' ! [rejected]  main -> main (fetch first)')
    r"\bis too old\b|\brejected\b|"
    # curl's own report of a failed transfer, its exit code in brackets (`curl: (60) SSL: no alternative certificate
    # subject name matches target host name 'localhost'`): curl prints that form only when it gives up
    r"^curl: \(\d+\) |"
    # a Python traceback's frame: only an exception's report prints it (subprocess's `File ".../subprocess.py", line
    # 1950, in _execute_child` above `FileNotFoundError: ... 'nvidia-smi'` says the program never started)
    r"^\s*File \"[^\"\n]+\", line \d+, in \S|"
    # a shell's own error report: bash's `<script>: line N: <message>`, dash's `<script>: N: <message>`
    r"^\S+: line \d+: |^[^\s:]+: \d+: [A-Z]|"
    # an errno's strerror text after a colon (`bash: /usr/bin/cp: Argument list too long`, `OSError: [Errno 36] File
    # name too long`): the C library's words for a failed call, listed from this Python's `os.strerror`
    r": (" + "|".join(sorted({re.escape(os.strerror(n)) for n in range(1, 134)
                               if not os.strerror(n).startswith("Unknown error")}, key=len, reverse=True)) + r"))")
# An error-looking line that must be explained or listed (issue 21, item 4). A bare `Traceback (most recent call
# last):` header is not one: the issue asks for the traceback's tail, which triage lists (its `...Error:` line).
ERROR_LINE = re.compile(
    r"(\[(ERROR|E|FATAL|CRITICAL)\]|^\s*\[?[EF]\d{4} |\[rank\d+\]:\[E\d{3,4} |\bERROR\b|"
    r"\b[A-Za-z_.]*(Error|Exception)(\[[^\]]*\])?: |"
    r"Segmentation fault|core dumped|^\s*Killed\b|\bE[0-9A-Z][0-9]{4}: )")


def read_excerpt(path: str) -> dict:
    head: Dict[str, str] = {}
    body: List[str] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#% ") and not body:
                key, _, value = line[3:].partition(":")
                head[key.strip()] = value.strip()
            else:
                body.append(line.rstrip("\n"))
    expect = head.get("expect")
    if expect not in ("fault", "clean") or not head.get("source") or (expect == "fault" and not head.get("fault")):
        raise SystemExit(f"{path}: header needs '#% source:', '#% expect: fault|clean' and, for a fault, '#% fault:'")
    return {"name": os.path.basename(path), "path": path, "source": head["source"], "expect": expect,
            "fault": head.get("fault"), "lines": body}


def excerpts(split: str, folders: Optional[List[str]] = None) -> List[dict]:
    """The excerpts of a split (or of every split: "all"), or of `folders` (directories of excerpts anywhere: a hidden
    set kept outside the repository until it is measured), each named by its folder's name."""
    dirs = [os.path.join(CORPUS, d) for d in (SPLITS if split == "all" else (split,))] if folders is None else folders
    out = []
    for base in dirs:
        for name in sorted(os.listdir(base)):
            if name.endswith(".log"):
                out.append(dict(read_excerpt(os.path.join(base, name)), split=os.path.basename(os.path.normpath(base))))
    return out


def facts() -> Optional[Dict[str, dict]]:
    for path in FACTS_CANDIDATES:
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                return {e["id"]: e for e in json.load(f)["entries"]}
    return None


@functools.lru_cache(maxsize=None)
def _source_rules() -> Dict[str, str]:
    """ascend-fd's source rules of the ids its facts list without a line rule (build_fd_rules.SOURCE_RULES, read once)."""
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    try:
        from build_fd_rules import SOURCE_RULES
    finally:
        sys.path.pop(0)
    return SOURCE_RULES


def fd_rule_holds(entry: Optional[dict], lines: List[str], code: Optional[str] = None) -> bool:
    """The ascend-fd entry's own rule on these lines: one alternative's literals all in one line, or its regex;
    with `code`, on a line where the entry's `attr_regex` also reads that code."""
    if entry is None:
        return False
    alts = entry.get("all_of") or []
    if alts and isinstance(alts[0], str):
        alts = [alts]
    # an id the facts list without a line rule: its rule is in ascend-fd's source (the hccn_tool output parsers),
    # as scripts/build_fd_rules.py records it (issue 21 item 2: "or the peer's source")
    regex = entry.get("regex") or (None if alts else _source_rules().get(entry.get("id", "")))
    for line in lines:
        holds = any(alt and all(lit in line for lit in alt) for alt in alts)
        if not holds and regex:
            try:
                holds = re.search(regex, line) is not None
            except re.error:
                pass
        if holds and (code is None or any(code in m.groupdict().values()
                                          for m in re.finditer(entry.get("attr_regex") or "(?!)", line))):
            return True
    return False


def fd_id_holds(fd_facts: Dict[str, dict], fd: str, lines: List[str]) -> bool:
    """Whether the id's own rule holds on one of the lines. A generic code entry is named with the code its
    `attr_regex` reads, as ascend-fd names it (AISW_CANN_ERRCODE_Custom_EZ9999: AISW_CANN_ERRCODE_Custom's rule
    on a line whose code is EZ9999)."""
    if fd in fd_facts:
        return fd_rule_holds(fd_facts[fd], lines)
    base, _, code = fd.rpartition("_")
    entry = fd_facts.get(base)
    return bool(entry and entry.get("attr_regex") and code) and fd_rule_holds(entry, lines, code)


def _listed(entry, lines: List[str]) -> Optional[int]:
    """The excerpt line an `unexplained_errors` entry stands for (entries: dict with line/text, or a string)."""
    if isinstance(entry, dict):
        n = entry.get("line")
        if isinstance(n, int):
            return n
        text = entry.get("text") or entry.get("line_text") or ""
    else:
        text = str(entry)
    text = text.strip()
    for i, line in enumerate(lines, 1):
        if text and line.strip() == text:
            return i
    return None


def folded_lines(raw: List[bytes], units) -> Dict[int, int]:
    """The lines that are not error lines of their own, as triage decides it (triage.lines.error_units, its one
    decision): a traceback's header, frames, source lines and carets and its exception's next lines (each mapped to
    the line of the unit it folds into: the exception line, or the last frame of a traceback without one), and
    blank lines under a logger's prefix (mapped to 0). A traceback whose exception line a problem explains is
    explained whole. What is left of ERROR_LINE's lines must each be explained or listed: a real error line between
    a traceback's frames (another process's, or one error-looking on its own) is a unit of its own. `units`:
    triage.lines.error_units of `raw`."""
    from ascend_doctor.triage.lines import is_error_line

    own = {u[0] for u in units}
    out: Dict[int, int] = {}
    for i, line in enumerate(raw, 1):
        if i not in own and is_error_line(line):
            out[i] = next((u[0] for u in units if u[2] is not None and u[2][0] <= i <= u[0]), 0)
    return out


def measure_one(ex: dict, kb, fd_facts) -> dict:
    from ascend_doctor.triage.lines import error_key, error_units  # triage's own decisions
    from ascend_doctor.triage.scan import triage_paths

    tmp = tempfile.mkdtemp(prefix="corpus-")
    try:
        path = os.path.join(tmp, ex["name"])
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(ex["lines"]) + "\n")
        result = triage_paths([path], kb).to_json()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    lines = ex["lines"]
    fault_re = re.compile(ex["fault"], re.I) if ex["fault"] else None
    named, generic, borrowed, fails, explained, beside = [], [], [], [], set(), []
    for p in result["problems"]:
        sig = kb.signature(p["signature"]) if p.get("signature") else None
        matched = [i for i, line in enumerate(lines, 1) if sig is not None and sig.search(line)]
        at = (p.get("line_at") or {}).get("line")  # the line the problem shows, read elsewhere than its first
        if at and at not in matched:  # (a frame's exception: Signature.exception_under)
            matched.append(at)
        explained.update(matched)
        texts = [lines[i - 1] for i in matched] or [p.get("line") or ""]
        if fault_re is not None and fault_re.search(f"{p['id']} {p['title']}"):
            (generic if p.get("class") == "wrapper" else named).append(p["id"])
        elif fault_re is not None:  # a statement beside the fault: each must be true of its line (--beside)
            beside.append({"id": p["id"], "severity": p.get("severity"), "class": p.get("class"), "title": p["title"],
                           "line": (p.get("line") or "")[:300]})
        for fd in p.get("ascend_fd") or []:
            if fd_facts is not None and not fd_id_holds(fd_facts, fd, texts):
                borrowed.append(f"{p['id']}: {fd}")
        if p.get("severity") == "fail":
            fails.append((p["id"], matched, texts))
    raw = [line.encode("utf-8", "surrogateescape") for line in lines]
    # the next lines of an exception's message are part of an error report, and explain that exception (triage's
    # one decision: triage.lines.Fold.follows; torch's tab-indented `Missing key(s) in state_dict: ...` under
    # `RuntimeError: Error(s) in loading state_dict for Net:`)
    message: List[int] = []
    units = error_units(raw, explained.__contains__, message)  # (one pass: units and the messages' next lines)
    explained |= {u[0] for u in units if u[3]}
    ordinary_fails = [pid for pid, matched, texts in fails
                      if ex["expect"] == "clean" or not (any(ERROR_WORD.search(t) for t in texts)
                                                         or any(i in message for i in matched))]
    folded = folded_lines(raw, units)
    error_lines = [i for i, line in enumerate(lines, 1) if ERROR_LINE.search(line) and i not in folded]
    listed = {_listed(e, lines) for e in result.get("unexplained_errors") or []}
    seen_text, unexplained = set(), []
    for i in error_lines:
        text = lines[i - 1].strip()
        key = error_key(raw[i - 1])  # two lines that differ only in numbers: one
        if i in explained or key in seen_text:
            continue
        seen_text.add(key)
        unexplained.append({"line": i, "text": text[:160], "listed": i in listed})
    return {"name": ex["name"], "split": ex["split"], "source": ex["source"], "expect": ex["expect"],
            "named": named, "generic_only": generic if not named else [],
            "problems": [p["id"] for p in result["problems"]], "beside": beside, "borrowed_peer_ids": borrowed,
            "ordinary_fails": ordinary_fails, "unexplained": unexplained,
            "folded": sum(1 for i in folded if ERROR_LINE.search(lines[i - 1]))}


def summarise(rows: List[dict]) -> dict:
    faulty = [r for r in rows if r["expect"] == "fault"]
    unexplained = [u for r in rows for u in r["unexplained"]]
    return {
        "excerpts": len(rows), "faulty": len(faulty), "clean": len(rows) - len(faulty),
        "named": sum(1 for r in faulty if r["named"]),
        "named_pct": round(100.0 * sum(1 for r in faulty if r["named"]) / len(faulty), 1) if faulty else 0.0,
        "generic_only": sum(1 for r in faulty if not r["named"] and r["generic_only"]),
        "borrowed_files": sum(1 for r in rows if r["borrowed_peer_ids"]),
        "borrowed_per_10": round(10.0 * sum(1 for r in rows if r["borrowed_peer_ids"]) / len(rows), 2) if rows else 0.0,
        "ordinary_fails": sum(len(r["ordinary_fails"]) for r in rows),
        "unexplained_errors": len(unexplained),
        "unexplained_listed": sum(1 for u in unexplained if u["listed"]),
        "folded_lines": sum(r["folded"] for r in rows),
    }


def measure(split: str = "heldout", folders: Optional[List[str]] = None) -> dict:
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.kb.load import load_knowledge_base

    set_lang("en")
    kb = load_knowledge_base()
    fd_facts = facts()
    rows = [measure_one(ex, kb, fd_facts) for ex in excerpts(split, folders)]
    name = split if folders is None else "+".join(os.path.basename(os.path.normpath(f)) for f in folders)
    return {"split": name, "peer_rules": fd_facts is not None, "summary": summarise(rows), "excerpts": rows}


def text_report(m: dict) -> str:
    s = m["summary"]
    out = [f"corpus {m['split']}: {s['excerpts']} excerpts ({s['faulty']} faulty, {s['clean']} clean)",
           f"  specific fault named:        {s['named']}/{s['faulty']} = {s['named_pct']}% of faulty excerpts"
           f" ({s['generic_only']} more only by a wrapper entry)",
           "  peer id the line does not support: " + (
               f"{s['borrowed_files']} files = {s['borrowed_per_10']} in 10" if m["peer_rules"]
               else "not measured (shared/reference/ascend_fd_kb_facts.json not found)"),
           f"  FAIL from an ordinary line:  {s['ordinary_fails']}",
           f"  unexplained error lines:     {s['unexplained_errors']} ({s['unexplained_listed']} listed by triage;"
           f" {s['folded_lines']} lines of tracebacks folded into them or into explained ones)"]
    misses = [r for r in m["excerpts"] if r["expect"] == "fault" and not r["named"]]
    if misses:
        out += ["", "faulty excerpts without the specific fault:"]
        out += [f"  {r['name']}: {', '.join(r['problems']) or 'nothing reported'}  <{r['source']}>" for r in misses]
    for key, title in (("borrowed_peer_ids", "peer ids the lines do not support:"),
                       ("ordinary_fails", "FAIL from an ordinary line:")):
        rows = [r for r in m["excerpts"] if r[key]]
        if rows:
            out += ["", title] + [f"  {r['name']}: {'; '.join(r[key])}" for r in rows]
    rows = [r for r in m["excerpts"] if r["unexplained"]]
    if rows:
        out += ["", "error lines no problem explains (+ = listed in unexplained_errors):"]
        for r in rows:
            out += [f"  {'+' if u['listed'] else '-'} {r['name']}:{u['line']}: {u['text']}" for u in r["unexplained"]]
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--split", choices=SPLITS + ("all",), default="heldout")
    ap.add_argument("--dir", nargs="+", metavar="DIR",
                    help="measure these directories of excerpts instead (a hidden set outside the repository)")
    ap.add_argument("--summary", action="store_true",
                    help="print the figures only, no excerpt's name or line: how a hidden set is measured before the "
                         "knowledge base it measures is final (whoever writes entries must not read its misses)")
    ap.add_argument("--json", action="store_true", help="print the measurement as JSON")
    ap.add_argument("--beside", metavar="FILE",
                    help="also write, one JSON object a line, every problem reported on a faulty excerpt beside its "
                         "labelled fault (excerpt, source, id, title, line): what a precision audit judges true or not")
    args = ap.parse_args(argv)
    for d in args.dir or ():
        if not os.path.isdir(d):
            ap.error(f"--dir {d}: not a directory of excerpts")
    m = measure(args.split, args.dir)
    if args.beside:
        with open(args.beside, "w", encoding="utf-8") as fh:
            for row in m["excerpts"]:
                for b in row.get("beside") or ():
                    fh.write(json.dumps(dict(excerpt=f"{row['split']}/{row['name']}", source=row["source"], **b),
                                        ensure_ascii=False) + "\n")
    if args.summary:
        m = {k: v for k, v in m.items() if k != "excerpts"}
        if not args.json:
            sys.stdout.write(text_report(dict(m, excerpts=[])))
            return 0
    sys.stdout.write(json.dumps(m, indent=1, ensure_ascii=False) + "\n" if args.json else text_report(m))
    return 0


if __name__ == "__main__":
    sys.exit(main())
