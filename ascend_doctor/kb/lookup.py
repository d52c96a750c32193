"""One index of what a user pastes or a report prints, behind `explain`, `kb show` and the ids `triage` prints.

`find(query, kb)` answers for: a signature id (ours), an ascend-fd fault id (also the generic code form the
peer prints, `AISW_CANN_ERRCODE_Custom_EE1002`), a pitfall (P08), a CANN error code (EI0006, EZ9999, E89999,
EE1002; what the vendor's catalogue says of it: data/cann_error_codes.json), an AscendCL return code (107010, 507014; data/acl_return_codes.json), a DCMI return code (-8005, -8255;
data/dcmi_return_codes.json), a torch_npu error code (ERR01007, ERR99999; data/torch_npu_error_codes.json), an
HCCL environment variable (HCCL_CONNECT_TIMEOUT; data/hccl_env.json) and a root-cause verdict of
`triage` (cluster_exception_location). Check ids need the check registry and are resolved by `explain` first.
A code's signatures: the ones whose id, pattern, literals or examples name it (those naming it in their id
first); for an AscendCL code no signature names, the root entries that read it in an error phrase (`error code is N`:
ACL_RETURN_CODE, whose pattern lists the documented codes); a CANN inner error (x9999, EE8888) goes to the inner-error entry first, never to an entry that only
matches a range of codes; a code no signature names goes to the generic entry that carries it, as the peer does.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

CANN_CODE = re.compile(r"^E[0-9A-Z][0-9]{4}$", re.I)  # EI0006, EZ9999, E19999, EL0004, EE1002, E89999
ACL_CODE = re.compile(r"^[1-5][0-9]{5}$")  # 107010, 207001, 507014
TORCH_NPU_CODE = re.compile(r"^ERR[0-9]{5}$", re.I)  # ERR00100, ERR99999
DCMI_CODE = re.compile(r"^-(?:8[0-9]{3}|9999[0-9])$")  # -8005, -8255 (data/dcmi_return_codes.json)
HCCL_VARIABLE = re.compile(r"^(HCCL|HCOMM)_[A-Z0-9_]+$", re.I)
# the generic entries of the peer that carry any code of their family: their id + "_" + the code is what it prints
GENERIC_FD = {"cann": "AISW_CANN_ERRCODE_Custom", "torch_npu": "AISW_PyTorch_ERRCODE_Common"}
# the signature a CANN inner error (module's x9999, runtime's EE8888) belongs to
INNER_ERROR_ID = "CANN_INNER_ERROR_X9999"


class Entry:
    """What a query is: `kind` (signature, ascend_fd, pitfall, error_code, hccl_env, root_cause), the key as
    shown, the signatures that explain it, and the kind's own facts (`info`)."""

    def __init__(self, kind: str, key: str, signatures=None, info: Optional[dict] = None, pitfall=None):
        self.kind = kind
        self.key = key
        self.signatures = list(signatures or [])
        self.info = dict(info or {})
        self.pitfall = pitfall


def acl_codes() -> dict:
    from ..data import load_data_file

    return load_data_file("acl_return_codes.json")


def in_run_language(known: dict, key: str = "meaning") -> str:
    """A code table's text (an entry of acl_codes()["codes"], dcmi_codes()["codes"], a torch_npu sub-module or code,
    an ATB status...) in the run's language: its `<key>_zh` under --lang zh where the table has one, else `<key>`.
    The one place the code tables' two languages are chosen."""
    from ..i18n import get_lang

    return (get_lang() == "zh" and known.get(key + "_zh")) or known[key]


def cann_codes() -> dict:
    from ..data import load_data_file

    return load_data_file("cann_error_codes.json")


def cann_code(code: str) -> Optional[dict]:
    """A CANN error code's entry in the vendor's catalogue (data/cann_error_codes.json) in both languages, as a JSON
    document keeps it (a saved one is worded again in either language): `class`, `title`, `message` (the template) and
    `file` as the vendor wrote them, `words` / `words_zh` (the errTitle in words), `cause` / `solution` (the vendor's
    English) and their `_zh` where the code's Chinese page was read. cann_text() says one of them in the run's language.
    None if the catalogue does not list the code."""
    known = cann_codes()["codes"].get(code.upper())
    if known is None:
        return None
    keys = ("class", "title", "message", "file", "page_zh", "words", "words_zh", "cause", "cause_zh", "solution",
            "solution_zh")
    out = {k: known[k] for k in keys if known.get(k)}
    out["code"] = code.upper()
    return out


def cann_text(known: dict, key: str) -> str:
    """A catalogue entry's `words`, `cause` or `solution` (lookup.cann_code) in the run's language: the Chinese where
    the catalogue has it under --lang zh, else the vendor's English, said as such in a Chinese run ("" if absent)."""
    from ..i18n import _, get_lang

    if not known.get(key):
        return ""
    if get_lang() != "zh" or known.get(key + "_zh") or key == "words":
        return in_run_language(known, key)
    return _("(the vendor's English text) {text}").format(text=known[key])


# A catalogued message is read where the line does not give its code (a TraceBack's lines, a caller that prints only the
# message: "Failed to allocate 160 bytes of host memory via new to Runtime.") only when the template is the vendor's
# own sentence: it starts with a capital, an ATC option (`--input_shape ...`) or a value and then its fixed text ("%s
# failed. Value %s for %s is invalid. Reason: %s."), and either its fixed text in all is TEMPLATE_FIXED_MIN characters
# and one of its fixed pieces (between two values) TEMPLATE_PIECE_MIN, the scanner's anchor; or it is a shorter
# sentence of the vendor's shape, values set in TEMPLATE_WORDS_MIN words and TEMPLATE_SHORT_MIN characters of fixed
# text with a piece of TEMPLATE_SHORT_PIECE ("Value %s for %s is invalid. Reason: %s.", "Failed to write file %s.
# Reason: %s."): "The resources are insufficient.", "Device not found or invalid.", "Failed to open file %s." and "%s
# failed. Reason: %s." are anyone's sentence. The second rule, and the first for a sentence in lower case or an
# ATC option's, ask a gate word of the scanner too (error, fail, invalid, ...: such a pattern runs only on the lines a
# gate marked, not over every byte). The line must hold the whole template, its end at the line's end
# (scripts/build_cann_error_codes.py). The one place of that decision: that script writes CANN_CATALOGUED_ERROR_CODE's
# message patterns and anchors from it, cann_said_codes names the code of what they read (of several templates a
# sentence fills, those with the most fixed text: the most specific).
TEMPLATE_PIECE_MIN = 20
TEMPLATE_FIXED_MIN = 40
TEMPLATE_WORDS_MIN = 5
TEMPLATE_SHORT_MIN = 24
TEMPLATE_SHORT_PIECE = 12
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")


def cann_template_head(message: str) -> str:
    """A template's text before its first value (its closing full stop left out, as the patterns read it)."""
    return message.strip().rstrip(".").split("%s")[0].strip()


def cann_template_anchor(message: str) -> str:
    """A read template's longest fixed piece: the literal the scanner looks for before the pattern is tried."""
    return max((p.strip() for p in message.strip().rstrip(".").split("%s")), key=len)


def cann_template_fixed(message: str) -> int:
    """A template's fixed text in characters (its values left out): how specific a sentence it is."""
    return len(" ".join(message.strip().rstrip(".").replace("%s", " ").split()))


def cann_template_read(message: str) -> bool:
    """Whether a template is read without its code (the rule above)."""
    from ..triage.match.gates import literal_gate  # the scanner's own gate words (GATE_WORDS), in any case

    text = message.strip()
    fixed, anchor = cann_template_fixed(text), len(cann_template_anchor(text))
    long = fixed >= TEMPLATE_FIXED_MIN and anchor >= TEMPLATE_PIECE_MIN
    gated = literal_gate(text.replace("%s", " ")) is not None  # a gate word: the scanner need not run it on every byte
    if not (text[:1].isupper() or (text.startswith("%s ") and text[3:4].isalpha())):
        # a long sentence in lower case ("the tiling_type is error, ...") or an ATC option's, with a gate word
        return long and gated and (text[:1].isalnum() or text.startswith("--"))
    if long:
        return True
    return (gated and "%s" in text and fixed >= TEMPLATE_SHORT_MIN and anchor >= TEMPLATE_SHORT_PIECE
            and len(_WORD.findall(text.replace("%s", " "))) >= TEMPLATE_WORDS_MIN)


def cann_template_codes(table: dict, codes) -> List[str]:
    """Of `codes` (the codes CANN_CATALOGUED_ERROR_CODE reads), those whose message is read without the code."""
    return [c for c in codes if cann_template_read(table["codes"][c]["message"])]


def cann_said_sentences(table: dict, codes) -> List[tuple]:
    """Of `codes`, (code, sentence) of each `said` sentence: a fixed sentence the runtime's own calls print for a code
    whose template is not read itself ("Allocating task info failed. Reason: The number of pending tasks in the stream
    exceeds the limit." for EE1019's "%s failed. Reason: %s."; scripts/build_cann_error_codes.py)."""
    return [(c, said["text"]) for c in codes for said in table["codes"][c].get("said", ())]


def cann_template_regex(message: str) -> str:
    """A template as a regex: its fixed text (spaces as ` +`, the closing full stop optional), each %s any text."""
    def fixed(text: str) -> str:
        return " +".join(re.escape(w) for w in text.split(" ") if w) if text.strip() else ""

    pieces = message.strip().rstrip(".").split("%s")
    # a leading value (a call's words: "Read binary file failed. ...") starts with a letter and holds no bracket or
    # colon, so that a log prefix before it (`... [file.cc:12]123 `, `RuntimeError: `) is not read into it
    leading = message.strip().startswith("%s")
    out = ""
    for i, piece in enumerate(pieces):
        lead, trail = piece.startswith(" ") and i, piece.endswith(" ") and i < len(pieces) - 1
        out += (" +" if lead else "") + fixed(piece) + (" +" if trail and piece.strip() else "")
        if i < len(pieces) - 1:
            out += "[A-Za-z][^\\n\\[\\]:]*?" if leading and i == 0 else "[^\\n]*?"
    return out


def cann_said_codes(said: str) -> List[str]:
    """The catalogued codes whose template (read without the code: cann_template_codes) is the sentence `said`."""
    table = cann_codes()
    cut = said.endswith("…")  # a long sentence as the report shows it: its head decides
    said = said.rstrip("…").strip()
    heads = [c for c, k in table["codes"].items() if said.startswith(cann_template_head(k["message"]))
             or (cut and cann_template_head(k["message"]).startswith(said))]
    # a cut sentence names a template whose longest fixed piece (its anchor) it holds, at least its first
    # TEMPLATE_PIECE_MIN characters (the cut may fall inside it): the head alone may be only "The"
    templates = [(c, table["codes"][c]["message"]) for c in cann_template_codes(table, heads)]
    templates += [(c, text) for c, text in cann_said_sentences(table, table["codes"])
                  if text.startswith(said[:TEMPLATE_PIECE_MIN])]
    fits = [(c, text) for c, text in templates
            if (cut and cann_template_anchor(text)[:TEMPLATE_PIECE_MIN] in said)
            or re.fullmatch(cann_template_regex(text) + r"\.?", said)]
    # of the templates the sentence fills, the most specific (most fixed text): "Value 1 for parameter x is invalid.
    # Reason: y" is E10001's "Value %s for parameter %s is invalid. Reason: %s" (and EK0001's, the same words), not
    # EK0003's "Value %s for %s is invalid. Reason: %s."; a `said` sentence (no value left) before any template
    most = max((cann_template_fixed(text) for _, text in fits), default=0)
    return sorted({c for c, text in fits if cann_template_fixed(text) == most})


def dcmi_codes() -> dict:
    from ..data import load_data_file

    return load_data_file("dcmi_return_codes.json")


def errno_codes() -> dict:
    from ..data import load_data_file

    return load_data_file("errno_causes.json")


_ERRNO_BY_TEXT: Dict[str, str] = {}  # strerror text, lower case -> its number (errno_code), made on first use


def errno_code(value: str) -> Optional[dict]:
    """An operating-system error in data/errno_causes.json, named by its number (`116`) or its strerror text in any case
    (`Stale file handle`; Go prints it in lower case): its entry (`name`, `text`, `cause`, `cause_zh`) with its number
    as `num`; None if neither is listed."""
    codes = errno_codes()["codes"]
    if not _ERRNO_BY_TEXT:
        _ERRNO_BY_TEXT.update({v["text"].lower(): n for n, v in codes.items()})
    value = value.strip()
    num = value if value.isdigit() else _ERRNO_BY_TEXT.get(value.lower())
    known = codes.get(num) if num else None
    return dict(known, num=num) if known else None


def torch_npu_codes() -> dict:
    from ..data import load_data_file

    return load_data_file("torch_npu_error_codes.json")


def torch_npu_code(code: str) -> Optional[dict]:
    """A torch_npu error code (`01007`, `ERR01007`) read from data/torch_npu_error_codes.json: its sub-module's printed
    name (`module`) and what it covers, the code's constant (`name`), meaning, whether it is an envelope (a call
    failed, not why), and the line torch_npu prints for it (`printed`), in the run's language; None if either part is
    not listed."""
    digits = code.upper()[3:] if code.upper().startswith("ERR") else code
    table = torch_npu_codes()
    sub, known = table["submodules"].get(digits[:2]), table["codes"].get(digits[2:])
    if len(digits) != 5 or sub is None or known is None:
        return None
    return {"module": sub["name"], "covers": in_run_language(sub, "covers"), "name": known["name"],
            "meaning": in_run_language(known), "envelope": bool(known.get("envelope")),
            "printed": f"ERR{digits} {sub['name']} {known['meaning']}"}


def code_family(code: str) -> Optional[str]:
    if DCMI_CODE.match(code):
        return "dcmi"
    if CANN_CODE.match(code):
        return "cann"
    if ACL_CODE.match(code):
        return "acl"
    if TORCH_NPU_CODE.match(code):
        return "torch_npu"
    return None


def is_inner_error(code: str) -> bool:
    c = code.upper()
    return bool(CANN_CODE.match(c)) and (c[2:] == "9999" or c == "EE8888")


def signatures_naming(kb, code: str) -> List:
    """Signatures that name a code: in the id, a pattern, an all_of string or an example (id first)."""
    token = re.compile(rf"(?<![0-9A-Za-z]){re.escape(code)}(?![0-9A-Za-z])")
    out = []
    for s in kb.signatures:
        texts = [s.id.replace("_", " ")] + s.patterns() + [lit for alt in s.all_of for lit in alt] + list(s.examples)
        if any(token.search(t) for t in texts):
            out.append(s)
    return sorted(out, key=lambda s: code.upper() not in s.id.upper())


def _add_listed(info: Dict[str, object], table: dict, code: str) -> None:
    """Into `info`: the entry a code table (data/acl_return_codes.json, data/dcmi_return_codes.json) has for `code`,
    with the table's source; nothing when the table does not list it."""
    if code in table["codes"]:
        info.update(table["codes"][code])
        info["source"] = table["source"]
        if table.get("source_zh"):
            info["source_zh"] = table["source_zh"]


def code_entry(kb, code: str) -> Optional[Entry]:
    """A CANN, AscendCL or torch_npu code: its meaning where the vendor lists it, and the signatures for it."""
    family = code_family(code)
    if family is None:
        return None
    code = code.upper()
    sigs = signatures_naming(kb, code)
    info: Dict[str, object] = {"code": code, "family": family}
    if family == "acl":
        _add_listed(info, acl_codes(), code)
    if family == "cann":
        known = cann_code(code)
        if known is not None:
            info["cann"] = known
            info["source"] = cann_codes()["source"]
            info["source_zh"] = cann_codes()["source_zh"]
            if not sigs and not is_inner_error(code):  # read in the printer's form (CANN_CATALOGUED_ERROR_CODE)
                sigs = [x for x in kb.explaining(f"{code}: {known['message'].replace('%s', 'x')}") if x.kind == "root"]
            if any(GENERIC_FD[family] in s.ascend_fd for s in sigs):  # the id the peer prints for it
                info["ascend_fd"] = f"{GENERIC_FD[family]}_{code}"
    if family == "dcmi":
        _add_listed(info, dcmi_codes(), code)
        if not sigs:  # read only in an error phrase (DCMI_RETURN_CODE): what triage names for it
            sigs = [x for x in kb.match_line(f"dcmi call failed, error code: {code}") if x.kind == "root"]
    if family == "torch_npu":
        known = torch_npu_code(code)
        if known is not None:
            table = torch_npu_codes()
            info["torch_npu"] = {k: known[k] for k in ("module", "covers", "name", "meaning", "envelope")}
            info["source"] = table["source"]
            info["source_zh"] = table["source_zh"]
            if not sigs:  # what triage names for the line torch_npu prints (TORCH_NPU_ERROR_CODE)
                sigs = [x for x in kb.match_line(known["printed"]) if x.kind == "root"]
    if not sigs and family == "acl":  # read only in an error phrase (ACL_RETURN_CODE): what triage names for it
        sigs = [x for x in kb.match_line(f"error code is {code}") if x.kind == "root"]
    if is_inner_error(code):
        inner = [s for s in kb.signatures if s.id == INNER_ERROR_ID]
        sigs = inner + [s for s in sigs if s.id != INNER_ERROR_ID]
        info["inner_error"] = True
    if not sigs and family in GENERIC_FD:
        # the peer's generic entry is our wrapper that carries its id (a class entry carrying it too, such as
        # CANN_ERROR_CODE_MESSAGE, reads a code's message on a line: it names no code of its own)
        carrying = kb.by_ascend_fd(GENERIC_FD[family])
        sigs = [s for s in carrying if s.kind == "wrapper"] or carrying
        if sigs:
            info["ascend_fd"] = f"{GENERIC_FD[family]}_{code}"
    if not sigs and "name" not in info:
        info["unknown"] = True
    return Entry("error_code", code, sigs, info)


def hccl_variable(name: str) -> Optional[dict]:
    from ..hccl_env import variables_by_name

    return variables_by_name().get(name.upper())


def root_cause_fix(kind: str) -> Optional[List[str]]:
    """The fix steps of a root-cause verdict of `triage`, in the current language."""
    from ..triage.rootcause import FIX, fix_steps

    return fix_steps(kind) if kind in FIX else None


def find(query: str, kb) -> Optional[Entry]:
    key = query.strip()
    up = key.upper()
    by_id = {s.id.upper(): s for s in kb.signatures}
    if up in by_id:
        return Entry("signature", by_id[up].id, [by_id[up]])
    if up in kb.pitfalls:
        p = kb.pitfalls[up]
        return Entry("pitfall", p.id, [s for s in kb.signatures if s.pitfall == p.id], pitfall=p)
    fd = kb.by_ascend_fd(key) or [s for s in kb.signatures if key.lower() in (f.lower() for f in s.ascend_fd)]
    if fd:
        return Entry("ascend_fd", key, fd)
    for family, base in GENERIC_FD.items():  # the peer's generic entry with the code appended
        if up.startswith(base.upper() + "_"):
            code = key[len(base) + 1:]
            entry = code_entry(kb, code) if code_family(code) else None
            if entry is not None:
                entry.info["ascend_fd"] = f"{base}_{code.upper()}"
                return entry
    entry = code_entry(kb, key)
    if entry is not None:
        return entry
    if HCCL_VARIABLE.match(key):
        spec = hccl_variable(key)
        if spec is not None:
            token = re.compile(rf"(?<![A-Z0-9_]){re.escape(spec['name'])}(?![A-Z0-9_])")
            naming = [s for s in kb.signatures if token.search(s.title) or token.search(s.cause)]
            return Entry("hccl_env", spec["name"], naming, {"variable": spec})
    fix = root_cause_fix(key.lower())
    if fix is not None:
        return Entry("root_cause", key.lower(), [], {"fix": fix})
    return None


def known_names(kb) -> List[str]:
    """Every name `find` answers for by name (for 'did you mean')."""
    from ..hccl_env import variables_by_name
    from ..triage.rootcause import FIX

    return list(kb.pitfalls) + [s.id for s in kb.signatures] + list(variables_by_name()) + list(FIX)
