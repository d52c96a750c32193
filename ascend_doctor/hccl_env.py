"""HCCL and Ascend launch variables: the documented table (data/hccl_env.json) and value rules.

The table is data — name, type, range, default, per-family overrides, source — so a
new CANN release changes the JSON, not this code. This module knows how to read each
*type* of value (an int range, an enum, a port list, the HCCL_ALGO grammar ...) and the
few rules that tie variables together (PCIE/ROCE combinations, AIV exec timeout).
Rule ids H1..H13 follow ascend_formats.md §7.6.
"""

from __future__ import annotations

import re
from typing import Dict, List, Mapping, Optional

from .data import load_data_file
from .i18n import N_, _, lookup
from .plan import or_step
from .i18n_text import localized
from .lazyre import lazy_compile
from .netrules import ip_problem
from .records import dataclass, field

FAIL, WARN = "fail", "warn"  # EnvIssue statuses (the Finding ones)

RULES = {
    "HCCL_CONNECT_TIMEOUT": "H1", "HCCL_EXEC_TIMEOUT": "H2", "HCCL_WHITELIST_DISABLE": "H3", "HCCL_WHITELIST_FILE": "H3",
    "HCCL_IF_IP": "H4", "HCCL_SOCKET_IFNAME": "H4", "HCCL_SOCKET_FAMILY": "H4", "HCCL_INTRA_PCIE_ENABLE": "H5",
    "HCCL_INTRA_ROCE_ENABLE": "H5", "HCCL_BUFFSIZE": "H6", "HCCL_ALGO": "H7", "HCCL_RDMA_TC": "H8", "HCCL_RDMA_SL": "H8",
    "HCCL_RDMA_TIMEOUT": "H8", "HCCL_RDMA_RETRY_CNT": "H8", "HCCL_IF_BASE_PORT": "H9", "HCCL_HOST_SOCKET_PORT_RANGE": "H10",
    "HCCL_NPU_SOCKET_PORT_RANGE": "H10", "HCCL_OP_EXPANSION_MODE": "H11",
}

FAMILY_NAMES = {"910": N_("Atlas training (910A)"), "910B": "Atlas A2", "910_93": "Atlas A3",
                "310P": "Atlas 300I Duo / 310P", "950": "Ascend 950"}


# A variable's `source` in data/hccl_env.json records where it was read: a repository file at a commit
# ("hicann/hccl@09300b70:docs/zh/.../HCCL_CONNECT_TIMEOUT.md") and the project's research notes
# ("(ascend_formats.md §5.1)"), which users do not have. What is shown names the repository file without the
# commit and leaves the notes out.
_REPO_AT = re.compile(r"(?<![\w/])(?P<repo>[\w.-]+/[\w.-]+)@[0-9a-f]{7,40}:(?P<path>\S+)")
_NOTES_PAREN = re.compile(r"\s*\((?:[^()]*;\s*)?(?:ascend_formats|error_signatures)\.md[^()]*\)")
_NOTES_WRAP = re.compile(r"^(?:ascend_formats|error_signatures)\.md(?: §[\d.-]+(?:, §[\d.-]+)*)? \((?P<inner>[^()]+)\)$")
_NOTES_PART = re.compile(r"(?:^|;\s*)(?:ascend_formats|error_signatures)\.md[^;]*")


def shown_source(source: str) -> str:
    """A variable's source as a user can follow it (explain, check), the same in either language: "{repo} {path}"
    for a repository file, the research-notes citations dropped (an entry cited only by them shows what they
    name, or nothing)."""
    text = _NOTES_PAREN.sub("", source or "").strip()
    m = _NOTES_WRAP.match(text)
    if m:
        text = m.group("inner")
    text = _NOTES_PART.sub("", text).strip().strip(";").strip()
    return _REPO_AT.sub(r"\g<repo> \g<path>", text)


def family_name(family: Optional[str]) -> str:
    """The product name of a device family, in the report's language (the family id when it has none)."""
    return _(FAMILY_NAMES[family]) if family in FAMILY_NAMES else str(family)


def data_text(text: Optional[str]) -> Optional[str]:
    """A text of data/hccl_env.json (a note, a product list) in the report's language: its translation is a
    catalog entry (locale/zh_CN/checks_runtime.po), else it shows as written."""
    return lookup(text) if text else text


@dataclass
class EnvIssue:
    name: str
    value: str
    status: str  # fail | warn
    message: str
    rule: str = "H12"
    fix: List[str] = field(default_factory=list)
    related: Dict[str, str] = field(default_factory=dict)  # other variables that decided it


def load_hccl_env_table() -> dict:
    return load_data_file("hccl_env.json")


def variables_by_name() -> Dict[str, dict]:
    return {v["name"]: v for v in load_hccl_env_table()["variables"]}


def _show(value: str) -> str:
    text = value if len(value) <= 60 else value[:57] + "..."
    return repr(text).encode("ascii", "backslashreplace").decode("ascii")


def _int(value: str) -> Optional[int]:
    v = value.strip()
    if v.isascii() and (v.isdigit() or (v.startswith("-") and v[1:].isdigit())) and len(v) <= 19:
        return int(v)
    return None


def _range_text(lo, hi) -> str:
    if hi is None:
        return f">= {lo}"
    return f"{lo}-{hi}"


# -- value checkers by type ---------------------------------------------------------------

def _check_int(spec: dict, name: str, value: str, env: Mapping[str, str], family: Optional[str]) -> List[EnvIssue]:
    n = _int(value)
    rule = RULES.get(name, "H12")
    lo, hi = spec["range"]
    fam = (spec.get("by_family") or {}).get(family or "", {})
    if fam.get("range"):
        lo, hi = fam["range"]
    default = spec.get("default")
    reset = [_("export {name}={default}   # the documented default").format(name=name, default=default)
             if default else f"unset {name}"]
    if spec.get("multiple_of") and default:
        # A traffic class (HCCL_RDMA_TC: DSCP x 4) must match the switch's QoS: the default or the switch's own DSCP
        # x 4, never a value rounded to the nearest multiple
        m = spec["multiple_of"]
        reset = [_("unset {name}   # HCCL then uses {default}, DSCP {dscp}; the switch's RoCE queue must use that "
                   "DSCP").format(name=name, default=default, dscp=int(default) // m),
                 or_step(_("export {name}=<that DSCP x {step}>   # a multiple of {step} in {range}").format(
                     name=name, step=m, range=_range_text(lo, hi)),
                     _("if the switch marks RoCE traffic with another DSCP"))]
    span = _range_text(lo, hi) + (" " + spec["unit"] if spec.get("unit") else "")
    if n is None:
        return [EnvIssue(name, value, FAIL, _("{name}={value} is not a whole number; the documented range is {range}")
                         .format(name=name, value=_show(value), range=span), rule, reset)]
    if n < lo or (hi is not None and n > hi):
        message = _("{name}={value} is outside the documented range {range} on {family}") if fam else \
            _("{name}={value} is outside the documented range {range}")
        return [EnvIssue(name, value, FAIL, message.format(name=name, value=n, range=span,
                                                           family=family_name(family)), rule, reset)]
    if spec.get("multiple_of") and n % spec["multiple_of"]:
        m = spec["multiple_of"]
        return [EnvIssue(name, value, FAIL, _("{name}={value} must be a multiple of {step}").format(
                             name=name, value=n, step=m), rule, reset)]
    out: List[EnvIssue] = []
    gran = fam.get("granularity")
    if gran:
        effective = max(gran, n // gran * gran)
        if effective != n:
            out.append(EnvIssue(name, value, WARN, _("{name}={value}: on {family} HCCL counts in steps of {step} s, so "
                                                     "the effective timeout is {effective} s, not {value}").format(
                                    name=name, value=n, family=family_name(family), step=gran, effective=effective),
                                rule, [_("export {name}={value}   # a multiple of {step}").format(
                                    name=name, value=effective if effective >= n else effective + gran, step=gran)]))
    for other, cases in (spec.get("when") or {}).items():
        case = cases.get(env.get(other, ""))
        if case:
            clo, chi = case["range"]
            if not clo <= n <= chi:
                message = _("{name}={value} with {other}={other_value}: the range is {low}-{high}; HCCL uses {high} "
                            "instead ({note})") if case.get("note") else \
                    _("{name}={value} with {other}={other_value}: the range is {low}-{high}; HCCL uses {high} instead")
                out.append(EnvIssue(name, value, WARN, message.format(name=name, value=n, other=other,
                                                                      other_value=env.get(other), low=clo, high=chi,
                                                                      note=data_text(case.get("note"))),
                                    rule, [f"export {name}={chi}"], {other: env.get(other, "")}))
    if name == "HCCL_EXEC_TIMEOUT" and family is None and n > 17340:
        out.append(EnvIssue(name, value, WARN, _("{name}={value} is valid on Atlas A2/A3 but above 17340, the limit on "
                                                 "Atlas training (910A) and 310P; the device family is unknown here").format(
                                name=name, value=n), rule,
                            [_("npu-smi info   # which family this is")]))
    if spec.get("ports_used"):
        last = n + spec["ports_used"] - 1
        if last > 65535:
            out.append(EnvIssue(name, value, WARN, _("{name}={value}: HCCL uses {count} ports from the base, up to "
                                                     "{last}, past 65535").format(name=name, value=n,
                                                                                  count=spec["ports_used"], last=last),
                                rule, [f"export {name}={65536 - spec['ports_used']}"]))
    return out


def _check_enum(spec, name, value, env, family):
    values = spec["values"]
    ok = value.lower() in [v.lower() for v in values] if spec.get("case_insensitive") else value in values
    if ok:
        return []
    close = [v for v in values if v.lower() == value.strip().lower()]
    message = _("{name}={value} is not one of {values} (the case or spacing matters: {close})") if close else \
        _("{name}={value} is not one of {values}")
    return [EnvIssue(name, value, FAIL, message.format(name=name, value=_show(value), values=", ".join(values),
                                                       close=repr(close[0]) if close else ""),
                     RULES.get(name, "H12"),
                     [f"export {name}={close[0] if close else spec.get('default', values[0])}"])]


def _check_enum_by_family(spec, name, value, env, family):
    by = spec["values_by_family"]
    rule = RULES.get(name, "H11")
    if family in by:
        allowed = by[family]
        if value in allowed:
            newer = (spec.get("deprecated_values") or {}).get(family, {}).get(value)
            if newer:
                return [EnvIssue(name, value, WARN, _("{name}={value} is a deprecated alias on {family}; use {newer}")
                                 .format(name=name, value=value, family=family_name(family), newer=newer), rule,
                                 [f"export {name}={newer}"])]
            return []
        default = spec["default_by_family"].get(family)
        status = FAIL if family == "950" else WARN
        message = _("{name}={value} is not supported on {family} (allowed: {allowed}); HCCL rejects it") \
            if status == FAIL else \
            _("{name}={value} is not supported on {family} (allowed: {allowed}); HCCL silently falls back to {default}")
        return [EnvIssue(name, value, status, message.format(name=name, value=_show(value), family=family_name(family),
                                                             allowed=", ".join(allowed), default=default),
                         rule, [f"export {name}={default}"])]
    every = sorted({v for vals in by.values() for v in vals})
    if value in every:
        return []
    return [EnvIssue(name, value, WARN, _("{name}={value} is not a value any Ascend family accepts ({values}); HCCL "
                                          "falls back to its default").format(name=name, value=_show(value),
                                                                              values=", ".join(every)),
                     rule, [f"unset {name}"])]


def _check_ip(spec, name, value, env, family):
    why = ip_problem(value.strip())
    if why:
        why = localized(why)  # netrules answers with an i18n_text.Text: English, shown here in the report's language
        return [EnvIssue(name, value, FAIL, _("{name} {problem}; it must be one IP address of this host").format(
                             name=name, problem=why), RULES.get(name, "H4"),
                         [_("ip -o addr show   # this host's addresses"), f"export {name}=<one of them>"])]
    return []


_IFNAME = lazy_compile(r"^\^?=?[A-Za-z0-9_.:@-]+$")


def _check_ifname_list(spec, name, value, env, family):
    items = value.split(",")
    bad = [i for i in items if not _IFNAME.match(i)]
    if bad:
        return [EnvIssue(name, value, FAIL, _("{name}={value}: {bad} is not an interface pattern (eth = prefix, ^eth = "
                                              "all but prefix, =eth0 = exact, ^=eth0 = all but exactly; comma-separated, no "
                                              "spaces)").format(name=name, value=_show(value),
                                                                bad=", ".join(_show(b) for b in bad)),
                         RULES.get(name, "H4"),
                         [_("ip -o link show   # the interface names"),
                          _("export {name}==eth0   # for example").format(name=name)])]
    return []


def parse_port_ranges(value: str):
    """'auto' or 'a,b-c,...' -> ([(lo, hi)], problem text or None)."""
    if value.strip() == "auto":
        return [], None
    spans = []
    for part in value.split(","):
        m = re.match(r"^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$", part)
        if not m:
            return None, _("{part} is not a port or a range such as 60000-60050").format(part=_show(part))
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if not (1 <= lo <= 65535 and 1 <= hi <= 65535):
            return None, _("{part} is outside 1-65535").format(part=part.strip())
        if lo > hi:
            return None, _("{part} runs backwards").format(part=part.strip())
        spans.append((lo, hi))
    spans.sort()
    for (a, b), (c, d) in zip(spans, spans[1:]):
        if c <= b:
            return None, _("{first} and {second} overlap").format(first=f"{a}-{b}", second=f"{c}-{d}")
    return spans, None


def _check_port_ranges(spec, name, value, env, family):
    spans, why = parse_port_ranges(value)
    rule = RULES.get(name, "H10")
    if why:
        return [EnvIssue(name, value, FAIL, _("{name}={value}: {problem}; expected 'auto' or comma-separated "
                                              "ports/ranges in 1-65535 that do not overlap").format(
                             name=name, value=_show(value), problem=why), rule, [f"export {name}=auto"])]
    if spans and spans[0][0] <= 1023:
        return [EnvIssue(name, value, WARN, _("{name} includes system ports (<= 1023); the HCCL docs say to avoid them")
                         .format(name=name),
                         rule, [_("export {name}=60000-60100   # for example").format(name=name)])]
    return []


def _check_algo(spec, name, value, env, family):
    algo = load_hccl_env_table()["algo"]
    problems = []
    segments = value.split("/")
    for seg in segments:
        body = seg
        if "=" in seg:
            op, body = seg.split("=", 1)
            if op not in algo["ops"]:
                problems.append(_("{op} is not an operation ({ops})").format(op=_show(op), ops=", ".join(algo["ops"])))
        elif len(segments) > 1:
            problems.append(_("{segment}: with several segments each must start with op=").format(segment=_show(seg)))
        levels = {}
        for part in body.split(";"):
            key, sep, val = part.partition(":")
            if not sep:
                problems.append(_("{part} is not level<N>:<algorithm>").format(part=_show(part)))
                continue
            levels[key] = val
            if key == "level0":
                if val != "NA":
                    problems.append(_("level0 is {value}; level0 must be NA").format(value=_show(val)))
            elif key in ("level1", "level2"):
                if val not in algo[key]:
                    problems.append(_("{level} algorithm {value} is not one of {values}").format(
                        level=key, value=_show(val), values=", ".join(algo[key])))
            else:
                problems.append(_("{key} is not level0, level1 or level2").format(key=_show(key)))
        if "level0" not in levels and levels:
            problems.append(_("level0:NA is missing"))
    if problems:
        return [EnvIssue(name, value, FAIL, _("HCCL_ALGO={value}: {problems}").format(
                             value=_show(value), problems=_("; ").join(problems[:4])), "H7",
                         [_("unset HCCL_ALGO   # let HCCL choose"),
                          _("export HCCL_ALGO=\"level0:NA;level1:ring\"   # the documented form")])]
    phasing = [a for a in algo.get("phasing_out", []) if re.search(rf":{re.escape(a)}(;|/|$)", value)]
    if phasing:
        return [EnvIssue(name, value, WARN, _("HCCL_ALGO uses {algorithms}, which the HCCL docs say is being phased out")
                         .format(algorithms=", ".join(phasing)),
                         "H7", ["export HCCL_ALGO=\"level0:NA;level1:NHR\""])]
    return []


def _check_op_retry_enable(spec, name, value, env, family):
    items = dict(p.split(":", 1) for p in value.split(",") if ":" in p)
    ok = (len(items) == len(value.split(",")) and set(items) <= {"L1", "L2"} and items
          and all(v in ("0", "1") for v in items.values()))
    if not ok:
        return [EnvIssue(name, value, FAIL, _("{name}={value} is not of the form L1:0|1,L2:0|1").format(
                             name=name, value=_show(value)), "H12",
                         [f"export {name}=\"L1:0,L2:0\""])]
    if "1" in items.values() and env.get("HCCL_OP_EXPANSION_MODE", "AI_CPU") != "AI_CPU":
        return [EnvIssue(name, value, WARN, _("{name} turns retry on, but it needs HCCL_OP_EXPANSION_MODE=AI_CPU (it is "
                                              "{mode}); retry will not happen").format(
                             name=name, mode=env.get("HCCL_OP_EXPANSION_MODE")), "H12",
                         ["export HCCL_OP_EXPANSION_MODE=AI_CPU"], {"HCCL_OP_EXPANSION_MODE": env.get("HCCL_OP_EXPANSION_MODE", "")})]
    return []


def _check_op_retry_params(spec, name, value, env, family):
    fields = spec["fields"]
    problems = []
    for part in value.split(","):
        key, sep, val = part.partition(":")
        if not sep or key not in fields:
            problems.append(_("{part} is not one of {fields}").format(
                part=_show(part), fields=", ".join(k + ":<n>" for k in fields)))
            continue
        n = _int(val)
        lo, hi = fields[key]
        if n is None or not lo <= n <= hi:
            problems.append(_("{key} is {value}, expected {low}-{high}").format(key=key, value=_show(val), low=lo, high=hi))
    if problems:
        return [EnvIssue(name, value, FAIL, _("{name}: {problems}").format(name=name, problems=_("; ").join(problems)),
                         "H12", [f"export {name}=\"{spec['default']}\""])]
    return []


def _check_string(spec, name, value, env, family):
    if len(value) > spec["max_length"]:
        return [EnvIssue(name, value, FAIL, _("{name} is {length} characters; at most {limit} allowed").format(
                             name=name, length=len(value), limit=spec["max_length"]), "H12",
                         [f"export {name}=<a shorter id>"])]
    return []


def _check_dfs_config(spec, name, value, env, family):
    # Only the ranges are documented here (§5.1), not the separator syntax: check known keys' values, ignore the rest.
    problems = []
    for key, val in re.findall(r"(\w+)\s*[:=]\s*([^,;\s]+)", value):
        if key == "connection_fault_detection_time":
            n = _int(val)
            if n is None or not (n == 0 or 20 <= n <= 7200):
                problems.append(_("connection_fault_detection_time is {value}, expected 0 or 20-7200 s").format(
                    value=_show(val)))
        elif key in ("cluster_heartbeat", "stuck_detection") and val not in ("on", "off"):
            problems.append(_("{key} is {value}, expected on or off").format(key=key, value=_show(val)))
        elif key == "inconsistent_check" and val not in ("on", "first", "off"):
            problems.append(_("inconsistent_check is {value}, expected on, first or off").format(value=_show(val)))
        elif key == "task_monitor_interval":
            n = _int(val)
            if n is None or not 0 <= n <= 7200000:
                problems.append(_("task_monitor_interval is {value}, expected 0-7200000 ms").format(value=_show(val)))
    if problems:
        return [EnvIssue(name, value, FAIL, _("{name}: {problems}").format(name=name, problems=_("; ").join(problems)),
                         "H12", [_("unset {name}   # the defaults").format(name=name)])]
    return []


def _check_whitelist_file(spec, name, value, env, family):
    return []  # checked with HCCL_WHITELIST_DISABLE below


_CHECKERS = {
    "int": _check_int, "enum": _check_enum, "enum_by_family": _check_enum_by_family, "ip": _check_ip,
    "ifname_list": _check_ifname_list, "port_ranges": _check_port_ranges, "algo": _check_algo,
    "op_retry_enable": _check_op_retry_enable, "op_retry_params": _check_op_retry_params, "string": _check_string,
    "dfs_config": _check_dfs_config, "whitelist_file": _check_whitelist_file,
}


def _combination_issues(env: Mapping[str, str]) -> List[EnvIssue]:
    out = []
    pcie, roce = env.get("HCCL_INTRA_PCIE_ENABLE"), env.get("HCCL_INTRA_ROCE_ENABLE")
    rule = load_hccl_env_table()["intra_link_rule"]
    if [pcie, roce] in [list(c) for c in rule["unsupported"]]:
        unset = _("(unset)")
        shown = f"HCCL_INTRA_PCIE_ENABLE={pcie if pcie is not None else unset}, " \
                f"HCCL_INTRA_ROCE_ENABLE={roce if roce is not None else unset}"
        out.append(EnvIssue("HCCL_INTRA_PCIE_ENABLE", pcie or "", FAIL,
                            _("{variables} is a combination HCCL does not support; use PCIE=1,ROCE=0 (PCIe, the "
                              "default) or PCIE=0,ROCE=1 (RoCE)").format(variables=shown), "H5",
                            [_("export HCCL_INTRA_PCIE_ENABLE=1 HCCL_INTRA_ROCE_ENABLE=0   # intra-server over PCIe"),
                             or_step(_("export HCCL_INTRA_PCIE_ENABLE=0 HCCL_INTRA_ROCE_ENABLE=1   # over RoCE"))],
                            {"HCCL_INTRA_ROCE_ENABLE": roce if roce is not None else unset}))
    if env.get("HCCL_WHITELIST_DISABLE") == "0" and not env.get("HCCL_WHITELIST_FILE"):
        out.append(EnvIssue("HCCL_WHITELIST_DISABLE", "0", FAIL, _("HCCL_WHITELIST_DISABLE=0 turns the host whitelist on, "
                                                                   "but HCCL_WHITELIST_FILE is not set: connections will "
                                                                   "be refused"), "H3",
                            [_("export HCCL_WHITELIST_FILE=/path/whitelist.json   # {\"host_ip\": [\"<peer host IPs>\"]}"),
                             or_step("export HCCL_WHITELIST_DISABLE=1")]))
    det = env.get("HCCL_DETERMINISTIC", "").lower()
    size = _int(env.get("RANK_SIZE", "") or "")
    if det == "strict" and size is not None and size < 3:
        out.append(EnvIssue("HCCL_DETERMINISTIC", env["HCCL_DETERMINISTIC"], WARN, _("HCCL_DETERMINISTIC=strict needs a "
                                                                                   "rank size of at least 3; RANK_SIZE "
                                                                                   "is {size}").format(size=size),
                            "H12", ["export HCCL_DETERMINISTIC=true"],
                            {"RANK_SIZE": env.get("RANK_SIZE", "")}))
    return out


def _scope_issues(spec: dict, name: str, value: str, family: Optional[str]) -> List[EnvIssue]:
    """A valid value that only takes effect on some products (the reference's product-support list): say where."""
    scope = spec.get("applies_to")
    if not scope or value.strip() != scope["value"]:
        return []
    where = scope["families"]
    fix = [_("unset {name}   # unless this node is one of those products").format(name=name),
           _("npu-smi info   # the product and chip here")]
    if family in where:
        text = where[family]
        msg = (_("{name}={value} is not supported on {family}") if text is None else
               _("{name}={value} takes effect on {family} {products}")).format(
                   name=name, value=value, family=family_name(family), products=data_text(text))
    else:
        listed = _("; ").join(_("{family}: {products}").format(family=family_name(f),
                                                              products=data_text(t) or _("not supported"))
                              for f, t in where.items())
        msg = _("{name}={value} ({note}) takes effect only on some products ({products}); the family here is "
                "unknown").format(name=name, value=value, note=data_text(scope["note"]), products=listed)
    source = shown_source(scope["source"])
    return [EnvIssue(name, value, WARN, f"{msg} [{source}]" if source else msg, RULES.get(name, "H12"), fix)]


def validate_hccl_env(env: Mapping[str, str], family: Optional[str] = None):
    """-> (issues, checked) where checked = {name: note} for every documented HCCL variable that is set."""
    table = variables_by_name()
    issues: List[EnvIssue] = []
    checked: Dict[str, str] = {}
    for name, value in sorted(env.items()):
        spec = table.get(name)
        if spec is None or spec["type"] in ("any", "launch"):
            continue
        checker = _CHECKERS.get(spec["type"])
        if checker is None:
            continue
        found = checker(spec, name, value, env, family) + _scope_issues(spec, name, value, family)
        issues.extend(found)
        if not found:
            note = data_text(spec.get("note", ""))
            if name == "HCCL_CONNECT_TIMEOUT":
                note = _("waits {seconds} s in total (value + 20 s)").format(seconds=int(value) + 20)
            checked[name] = _("{value} ({note})").format(value=value, note=note) if note else f"{value}"
    issues.extend(_combination_issues(env))
    return issues, checked


def known_names() -> List[str]:
    return sorted(variables_by_name())


def suggest_name(name: str) -> Optional[str]:
    """The documented variable `name` most likely meant to be, or None."""
    names = known_names()
    upper = name.strip().upper().replace("-", "_")
    if upper in names and upper != name:
        return upper
    import difflib  # only for names that look misspelled

    close = difflib.get_close_matches(upper, names, n=1, cutoff=0.85)
    return close[0] if close else None


def name_issues(env: Mapping[str, str], family: Optional[str] = None) -> List[EnvIssue]:
    """Misspelled, unknown HCCL_* and legacy variable names (the value is then silently ignored).

    The value rules own every value: a misspelled name whose right name is already set is only
    unset (hccl.env_values judges the value that is read), and a value moved to the right name
    is first put through the rules of that name, so two fixes never give one variable two values.
    """
    table = variables_by_name()
    prefixes = tuple(load_hccl_env_table()["prefixes"])
    out: List[EnvIssue] = []
    for name, value in sorted(env.items()):
        spec = table.get(name)
        if spec is not None:
            if spec.get("legacy"):
                out.append(EnvIssue(name, value, WARN, _("{name} is {note}; current CANN releases may ignore it").format(
                                        name=name, note=data_text(spec.get("note")) or _("a legacy name")),
                                    "H12", [f"unset {name}"]))
            continue
        if not name.strip().upper().replace("-", "_").startswith(prefixes):
            continue
        guess = suggest_name(name)
        if guess:
            if guess in env:
                message = _("{name} is not a variable HCCL/CANN/MindSpore reads; did you mean {guess}? As spelled, the "
                            "setting is silently ignored").format(name=name, guess=guess)
                fix = [_("unset {name}   # {guess} is set too and is the one read; its value is judged on its own")
                       .format(name=name, guess=guess)]
            else:
                moved = [i for i in validate_hccl_env({guess: value}, family)[0] if i.name == guess]
                fix = [f"unset {name}"] + (moved[0].fix if moved else [f"export {guess}={value}"])
                message = (_("{name} is not a variable HCCL/CANN/MindSpore reads; did you mean {guess}? As spelled, the "
                             "setting is silently ignored; the value it would pass is not valid either ({problem})")
                           if moved else
                           _("{name} is not a variable HCCL/CANN/MindSpore reads; did you mean {guess}? As spelled, the "
                             "setting is silently ignored")).format(name=name, guess=guess,
                                                                    problem=moved[0].message if moved else "")
            out.append(EnvIssue(name, value, WARN, message, "H12", fix))
        elif name.upper().startswith("HCCL_"):
            out.append(EnvIssue(name, value, WARN, _("{name} is not in the documented HCCL variable list (CANN 9.x docs); "
                                                     "if it is meant for HCCL, check the spelling: unknown names are "
                                                     "ignored").format(name=name),
                                "H12", [_("env | grep ^HCCL_   # compare with the HCCL environment-variable reference")]))
    return out
