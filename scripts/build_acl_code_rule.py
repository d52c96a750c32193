#!/usr/bin/env python3
"""Write the patterns of ACL_RETURN_CODE and ACL_ERROR_MESSAGE (data/kb/field_cases.json) from
data/acl_return_codes.json, and TORCH_NPU_ERROR_CODE's (data/kb/families_training.json) from
data/torch_npu_error_codes.json.

    python scripts/build_acl_code_rule.py          # rewrite the pattern in place
    python scripts/build_acl_code_rule.py --check  # exit 1 if the pattern is not what the table gives

A runtime/ACL call that fails is often reported only by a wrapper that prints its return code: `synchronize stream
failed, runtime result = 507035`, `... error code is 107020`, `errno[161002]`, `Kernel binary register failure! ret
107000`, `Create stream failed, ret:207000`. ACL_RETURN_CODE reads such a line and names the code's documented
meaning (its constant and meaning in the table, said in the entry's words through the `acl_code` placeholder).
It covers the codes of the table that
- are not `envelope` codes (internal error, model execute failed, the GE/driver module failed: they say that
  something failed, not what; the wrapper entries report them), and
- have no entry of their own: named with the code (`CANN_AICORE_TIMEOUT_507014`, `ACL_CONTEXT_NULL_107002`, ...) or a
  root entry that reads the code in a wrapper's phrase (FORMS; CANN_EZ9999_AICORE_EXCEPTION: 507015, 507035); that
  entry's words are the code's cause, one place.
The code counts only right after an error-code phrase written in the pattern (never a bare number: a pid, a step,
a size never matches), and not inside a longer number.

ACL_ERROR_MESSAGE reads the same codes when the line gives no number but the vendor's sentence for it: torch_npu prints
`[Error]: <sentence>` from its copy of the message table (NPUErrorCodes.h; the `printed` sentences of the table), the
code's number on an earlier line or not at all. It lists the printed sentences of the codes that are not `envelope`
codes (`The internal ACL of the system is incorrect.` says only that something failed); the code, its constant and
meaning follow from the sentence (the `acl_printed` group, ascend_doctor/kb/model.py).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import defaultdict
from typing import Dict, List

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(REPO, "data", "acl_return_codes.json")
PART = os.path.join(REPO, "data", "kb", "field_cases.json")
RULE_ID = "ACL_RETURN_CODE"
MESSAGE_ID = "ACL_ERROR_MESSAGE"
# the phrases that put a return code in an error context, as wrappers print them (case as printed)
# (`errorCode = N` is the AscendCL samples' ERROR_LOG form, `error code is:N` older torch_npu's)
PHRASES = (r"runtime result = |[Ee]rror ?[Cc]ode(?: is ?(?:: ?)?|: ?| ?= ?)|errno\[|ErrCode=|retcode: ?|\bret(?:=|: ?|\[| )|"
           r"failed: ")


# the call a wrapper names just before the phrase (torch_npu's `call aclnnX failed, error code is N` and
# `aclrtX(args), error code is N`, the runtime's `rtX failed, ret:N`), and the operator and message the operator
# API's plog line gives after the code (`errno[161001] OpName:[aclnnAdd_1] self is null`): the title says them
# (`acl` + a capital: AscendCL's own calls, `aclInit failed, ret = 107000` as hicann/runtime's FAQ shows it)
CALL = (r"(?:\b(?:call )?(?P<api>(?:aclnn|aclrt|Aclrt|aclmdl|aclop|acl|rt)[A-Z][A-Za-z0-9]*)"
        r"(?:\((?:[^()]|\([^()]*\))*\))?(?: failed)?,? )?")
OPERATOR = r"(?:\] OpName:\[(?P<op>[A-Za-z][A-Za-z0-9]*?)(?:_\d+)?\] (?P<message>[A-Za-z][^\n]{7,}?)(?=\[FUNC:|$))?"


# more error phrases, read for every documented code that is not an envelope and that no specific entry reads in
# that phrase (a code with an entry of its own is named here where its entry does not read the phrase):
MORE_PHRASES = (r"\b[Ee]rror [Cc]ode |\baclError ?[=:] ?|"
                r"\b(?:CANN|ACL|AscendCL|NPU|[Cc]all) failed with (?:error|code|ret)(?: code)?:? ")
API_CODE = r"\bapi=(?P<api>(?:aclnn|aclrt|Aclrt|aclmdl|aclop|acl|rt)[A-Z][A-Za-z0-9]*), (?:code|ret|error)="


# how a code is tried against the other entries: an entry that reads one of these lines is the code's own
FORMS = ("error code is {}", "runtime result = {}", "ErrCode={}")


def own_entry_codes(signatures, codes) -> set:
    """The codes with an entry of their own: named in its id (`..._507014`), or a root entry that reads the code in
    a wrapper's phrase (CANN_EZ9999_AICORE_EXCEPTION reads `error code is 507015`)."""
    others = [s for s in signatures if s.id != RULE_ID]
    out = {m.group(1) for s in others for m in [re.search(r"_([1-5][0-9]{5})$", s.id)] if m}
    roots = [s for s in others if s.kind == "root"]
    for code in codes:
        if code not in out and any(s.search(f.format(code)) for f in FORMS for s in roots):
            out.add(code)
    return out


def rule_codes(table: Dict[str, dict], signatures) -> List[str]:
    own = own_entry_codes(signatures, sorted(table))
    return sorted(c for c, v in table.items() if not v.get("envelope") and c not in own)


def alternation(codes: List[str]) -> str:
    """The codes as one regex, grouped by their first four digits (`1070(?:00|03|19)`)."""
    by = defaultdict(list)
    for c in codes:
        by[c[:4]].append(c[4:])
    return "|".join(f"{head}(?:{'|'.join(tails)})" if len(tails) > 1 else head + tails[0]
                    for head, tails in sorted(by.items()))


def pattern(table: Dict[str, dict], signatures) -> str:
    return f"{CALL}(?:{PHRASES})(?P<acl_code>{alternation(rule_codes(table, signatures))})(?![0-9]){OPERATOR}"


# each `also` pattern of ACL_RETURN_CODE with the lines it is tried on against the specific entries
MORE_FORMS = ((f"{CALL}(?:{MORE_PHRASES})", ("error code {}", "aclError={}", "CANN failed with error {}")),
              (f"{CALL[:-1]}ret ?= ?", ("aclrtMalloc failed, ret = {}",)),  # CALL without its `?`: the call required
              (API_CODE, ("ACL ERROR: api=aclrtMalloc, code={}",)))


def more_patterns(table: Dict[str, dict], signatures) -> List[str]:
    """ACL_RETURN_CODE's `also`: each form of MORE_FORMS with the codes that are not envelopes and that no specific
    entry (not a class, wrapper or this rule) reads in that form."""
    specific = [s for s in signatures if s.id not in (RULE_ID, MESSAGE_ID) and s.kind == "root" and not s.fallback]
    out = []
    for head, samples in MORE_FORMS:
        codes = sorted(c for c, v in table.items() if not v.get("envelope")
                       and not any(s.search(f.format(c)) for f in samples for s in specific))
        tail = OPERATOR if head.startswith(CALL) else ""
        out.append(f"{head}(?P<acl_code>{alternation(codes)})(?![0-9]){tail}")
    return out


MESSAGE_CHUNK = 1500  # characters of sentences per pattern: Hyperscan takes each byte as a \xNN escape, 16 kB at most


def message_patterns(table: Dict[str, dict]) -> List[str]:
    """`[Error]: ` and one of the printed sentences of the non-envelope codes (longest first, each once), in patterns
    short enough for Hyperscan (ACL_ERROR_MESSAGE's `pattern` and `also`)."""
    said = sorted({v["printed"] for v in table.values() if v.get("printed") and not v.get("envelope")},
                  key=lambda t: (-len(t), t))
    chunks: List[List[str]] = [[]]
    for t in said:
        if chunks[-1] and sum(len(x) for x in chunks[-1]) + len(t) > MESSAGE_CHUNK:
            chunks.append([])
        chunks[-1].append(re.escape(t))
    return [r"\[Error\]: (?P<acl_printed>" + "|".join(c) + ")" for c in chunks]


# torch_npu's own error codes (data/torch_npu_error_codes.json): torch_npu appends `ERR<sub-module><code> <SUB-MODULE>
# <meaning>` to its messages (NPUException.cpp formatErrorCode, utils/_error_code.py). TORCH_NPU_ERROR_CODE, a class
# entry in data/kb/families_training.json, reads the codes that say what kind of error it is (invalid type, feature
# not supported, timeout ...), each with its own sub-module's name and its own meaning as torch_npu prints them; the
# envelope codes (a call to AscendCL, HCCL or GE failed, an internal error, an application exception) are left to
# TORCH_NPU_ERR_CODE_WRAPPER.
TORCH_NPU_TABLE = os.path.join(REPO, "data", "torch_npu_error_codes.json")
TORCH_NPU_PART = os.path.join(REPO, "data", "kb", "families_training.json")
TORCH_NPU_RULE_ID = "TORCH_NPU_ERROR_CODE"


def torch_npu_pattern(table: dict) -> str:
    """`ERR<two digits><three digits> <SUB-MODULE> <meaning>`: a listed sub-module's digits and a non-envelope code's,
    then a listed sub-module's printed name and a non-envelope code's printed meaning (what the title says is read from
    the digits, `tnpu_code`)."""
    subs = {k: v["name"] for k, v in sorted(table["submodules"].items()) if v["name"] != "UNKNOWN"}
    codes = {c: v["meaning"] for c, v in sorted(table["codes"].items()) if not v.get("envelope") and c != "000"}
    return (rf"\bERR(?P<tnpu_code>(?:{'|'.join(subs)})(?:{'|'.join(codes)})) (?:{'|'.join(subs.values())}) "
            rf"(?:{'|'.join(re.escape(m) for m in codes.values())})\b")


def _signatures():
    sys.path.insert(0, REPO)
    from ascend_doctor.kb.load import load_knowledge_base

    return load_knowledge_base().signatures


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    with open(TABLE, encoding="utf-8") as fh:
        table = json.load(fh)["codes"]
    sigs = _signatures()
    want = pattern(table, sigs)
    with open(PART, encoding="utf-8") as fh:
        part = json.load(fh)
    entry = next(s for s in part["signatures"] if s["id"] == RULE_ID)
    message = next(s for s in part["signatures"] if s["id"] == MESSAGE_ID)
    with open(TORCH_NPU_TABLE, encoding="utf-8") as fh:
        tnpu_want = torch_npu_pattern(json.load(fh))
    with open(TORCH_NPU_PART, encoding="utf-8") as fh:
        tnpu_part = json.load(fh)
    tnpu_entry = next(s for s in tnpu_part["signatures"] if s["id"] == TORCH_NPU_RULE_ID)
    if "--check" in argv:
        ok = (entry["pattern"] == want and entry.get("also") == more_patterns(table, sigs)
              and [message["pattern"]] + message.get("also", []) == message_patterns(table)
              and tnpu_entry["pattern"] == tnpu_want)
        print("ACL_RETURN_CODE's, ACL_ERROR_MESSAGE's and TORCH_NPU_ERROR_CODE's patterns are " +
              ("what the tables give" if ok else "stale: run scripts/build_acl_code_rule.py"))
        return 0 if ok else 1
    tnpu_entry["pattern"] = tnpu_want
    with open(TORCH_NPU_PART, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(tnpu_part, indent=1, ensure_ascii=False) + "\n")
    entry["pattern"] = want
    entry["also"] = more_patterns(table, sigs)
    message["pattern"], *more = message_patterns(table)
    message["also"] = more
    with open(PART, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(part, indent=1, ensure_ascii=False) + "\n")
    print(f"{RULE_ID}: {len(rule_codes(table, sigs))} codes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
