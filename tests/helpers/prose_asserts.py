"""Count the test asserts that compare English prose with what the doctor says (issue 23 item 1: "Tests assert ids
and parameters, not English sentences"); `python scripts/prose_asserts.py` prints the figure, and
tests/test_prose_asserts.py keeps it from growing back.

An assert counts when a comparison in it (`in`, `not in`, `==`, `!=`) has on one side a string literal of English
prose and on the other a text the doctor made (a finding's title, summary, fix or evidence, a plan step, a
report, a probe's fact phrase, a rendered output): anything but

- a message id or its parameters (`.msgid`, `.params`, `["id"]`, `msg_ids(...)`): what the asserts should compare;
- an error line (`stderr`, `err`, `errors`, `problems`, `e`, `exc`): exit-2 errors and validation messages are
  worded where they are raised, one line naming file, field and expectation, not a finding's words.

Prose: at least three words of which at least two are alphabetic (CANN counts) and one is lower-case (`"upgrade the NVIDIA
driver"`, `"install CANN 8.3.RC1"`), not a command line (`"pip install mindspore==2.7.2"`: a fix's command is
never translated). One assert with several such comparisons counts once.
"""

import ast
import os
import re
from typing import Dict, List, Tuple

_WORD = re.compile(r"^[A-Za-z][A-Za-z]+[,.;:!?)'`]*$")
_COMMAND = re.compile(r"^\s*(?:pip3?|conda|python[0-9.]*|source|export|unset|sudo|ls|cat|grep|bash|sh|set|cd|"
                      r"mkdir|rm|du|npu-smi|hccn_tool|ascend-doctor|nvidia-smi|modprobe|\./|/|#)(?:\s|$)")
# the other side of the comparison names a message id, or an error line
_ID = re.compile(r"\.msgid\b|\.params\b|\[['\"]id['\"]\]|\bREGISTERED\b|\bmsg_ids\(")
_ERROR = re.compile(r"(?:^|\.)(?:stderr|err|errs|errors|problems|exc|e)(?:\b|\[)|^(?:e|err|errs|exc)$")


def is_prose(value: str) -> bool:
    tokens = value.split()
    if len(tokens) < 3 or _COMMAND.match(value):
        return False
    words = [t for t in tokens if _WORD.match(t)]
    return len(words) >= 2 and any(w.rstrip(",.;:!?)'`").islower() for w in words)


def _operands(compare: ast.Compare) -> List[Tuple[ast.AST, ast.AST]]:
    """(literal side, other side) of each comparison of an `in`/`==` kind."""
    sides = [compare.left] + list(compare.comparators)
    out = []
    for i, op in enumerate(compare.ops):
        if isinstance(op, (ast.In, ast.NotIn, ast.Eq, ast.NotEq)):
            a, b = sides[i], sides[i + 1]
            out += [(a, b), (b, a)]
    return out


def prose_asserts(source: str) -> List[Tuple[int, str]]:
    """(line, literal) of each assert of `source` that compares prose with a text of the doctor."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Assert):
            continue
        for sub in ast.walk(node.test):
            if not isinstance(sub, ast.Compare):
                continue
            hit = next((lit.value for lit, other in _operands(sub)
                        if isinstance(lit, ast.Constant) and isinstance(lit.value, str) and is_prose(lit.value)
                        and not _ID.search(ast.unparse(other)) and not _ERROR.search(ast.unparse(other))), None)
            if hit is not None:
                found.append((node.lineno, hit))
                break
    return found


def count(repo: str) -> Dict[str, List[Tuple[int, str]]]:
    """tests/ file (relative to the checkout, '/'-separated) -> its prose asserts; files with none left out."""
    out = {}
    tests = os.path.join(repo, "tests")
    for dirpath, dirnames, filenames in os.walk(tests):
        dirnames[:] = sorted(d for d in dirnames if d not in ("fixtures", "__pycache__"))
        for name in sorted(filenames):
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as fh:
                    hits = prose_asserts(fh.read())
                if hits:
                    out[os.path.relpath(path, repo).replace(os.sep, "/")] = hits
    return out
