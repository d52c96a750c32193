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

FAMILY_NAMES = {"910": "Atlas training (910A)", "910B": "Atlas A2", "910_93": "Atlas A3", "310P": "Atlas 300I Duo / 310P",
                "950": "Ascend 950"}


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
    where = f" on {FAMILY_NAMES.get(family, family)}" if fam else ""
    default = spec.get("default")
    reset = [f"export {name}={default}   # the documented default" if default else f"unset {name}"]
    if n is None:
        return [EnvIssue(name, value, FAIL, f"{name}={_show(value)} is not a whole number; the documented range is "
                                            f"{_range_text(lo, hi)}{' ' + spec['unit'] if spec.get('unit') else ''}", rule, reset)]
    if n < lo or (hi is not None and n > hi):
        return [EnvIssue(name, value, FAIL, f"{name}={n} is outside the documented range {_range_text(lo, hi)}"
                                            f"{' ' + spec['unit'] if spec.get('unit') else ''}{where}", rule, reset)]
    if spec.get("multiple_of") and n % spec["multiple_of"]:
        m = spec["multiple_of"]
        return [EnvIssue(name, value, FAIL, f"{name}={n} must be a multiple of {m}", rule,
                         [f"export {name}={n - n % m}"])]
    out: List[EnvIssue] = []
    gran = fam.get("granularity")
    if gran:
        effective = max(gran, n // gran * gran)
        if effective != n:
            out.append(EnvIssue(name, value, WARN, f"{name}={n}: on {FAMILY_NAMES.get(family, family)} HCCL counts in steps "
                                                   f"of {gran} s, so the effective timeout is {effective} s, not {n}",
                                rule, [f"export {name}={effective if effective >= n else effective + gran}   # a multiple of {gran}"]))
    for other, cases in (spec.get("when") or {}).items():
        case = cases.get(env.get(other, ""))
        if case:
            clo, chi = case["range"]
            if not clo <= n <= chi:
                out.append(EnvIssue(name, value, WARN, f"{name}={n} with {other}={env.get(other)}: the range is "
                                                       f"{clo}-{chi}; HCCL uses {chi} instead ({case.get('note', '')})".rstrip(" ()"),
                                    rule, [f"export {name}={chi}"], {other: env.get(other, "")}))
    if name == "HCCL_EXEC_TIMEOUT" and family is None and n > 17340:
        out.append(EnvIssue(name, value, WARN, f"{name}={n} is valid on Atlas A2/A3 but above 17340, the limit on Atlas "
                                               "training (910A) and 310P; the device family is unknown here", rule,
                            ["npu-smi info   # which family this is"]))
    if spec.get("ports_used"):
        last = n + spec["ports_used"] - 1
        if last > 65535:
            out.append(EnvIssue(name, value, WARN, f"{name}={n}: HCCL uses {spec['ports_used']} ports from the base, up to {last}, "
                                                   "past 65535", rule, [f"export {name}={65536 - spec['ports_used']}"]))
    return out


def _check_enum(spec, name, value, env, family):
    values = spec["values"]
    ok = value.lower() in [v.lower() for v in values] if spec.get("case_insensitive") else value in values
    if ok:
        return []
    close = [v for v in values if v.lower() == value.strip().lower()]
    hint = f" (the case or spacing matters: {close[0]!r})" if close else ""
    return [EnvIssue(name, value, FAIL, f"{name}={_show(value)} is not one of {', '.join(values)}{hint}",
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
                return [EnvIssue(name, value, WARN, f"{name}={value} is a deprecated alias on {FAMILY_NAMES.get(family, family)}; "
                                                    f"use {newer}", rule, [f"export {name}={newer}"])]
            return []
        default = spec["default_by_family"].get(family)
        status = FAIL if family == "950" else WARN
        return [EnvIssue(name, value, status, f"{name}={_show(value)} is not supported on {FAMILY_NAMES.get(family, family)} "
                                              f"(allowed: {', '.join(allowed)}); "
                                              + ("HCCL rejects it" if status == FAIL else f"HCCL silently falls back to {default}"),
                         rule, [f"export {name}={default}"])]
    every = sorted({v for vals in by.values() for v in vals})
    if value in every:
        return []
    return [EnvIssue(name, value, WARN, f"{name}={_show(value)} is not a value any Ascend family accepts "
                                        f"({', '.join(every)}); HCCL falls back to its default", rule, [f"unset {name}"])]


def _check_ip(spec, name, value, env, family):
    why = ip_problem(value.strip())
    if why:
        return [EnvIssue(name, value, FAIL, f"{name} {why}; it must be one IP address of this host", RULES.get(name, "H4"),
                         ["ip -o addr show   # this host's addresses", f"export {name}=<one of them>"])]
    return []


_IFNAME = lazy_compile(r"^\^?=?[A-Za-z0-9_.:@-]+$")


def _check_ifname_list(spec, name, value, env, family):
    items = value.split(",")
    bad = [i for i in items if not _IFNAME.match(i)]
    if bad:
        return [EnvIssue(name, value, FAIL, f"{name}={_show(value)}: {', '.join(_show(b) for b in bad)} is not an interface "
                                            "pattern (eth = prefix, ^eth = all but prefix, =eth0 = exact, ^=eth0 = all but "
                                            "exactly; comma-separated, no spaces)", RULES.get(name, "H4"),
                         ["ip -o link show   # the interface names", f"export {name}==eth0   # for example"])]
    return []


def parse_port_ranges(value: str):
    """'auto' or 'a,b-c,...' -> ([(lo, hi)], problem text or None)."""
    if value.strip() == "auto":
        return [], None
    spans = []
    for part in value.split(","):
        m = re.match(r"^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$", part)
        if not m:
            return None, f"{_show(part)} is not a port or a range such as 60000-60050"
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if not (1 <= lo <= 65535 and 1 <= hi <= 65535):
            return None, f"{part.strip()} is outside 1-65535"
        if lo > hi:
            return None, f"{part.strip()} runs backwards"
        spans.append((lo, hi))
    spans.sort()
    for (a, b), (c, d) in zip(spans, spans[1:]):
        if c <= b:
            return None, f"{a}-{b} and {c}-{d} overlap"
    return spans, None


def _check_port_ranges(spec, name, value, env, family):
    spans, why = parse_port_ranges(value)
    rule = RULES.get(name, "H10")
    if why:
        return [EnvIssue(name, value, FAIL, f"{name}={_show(value)}: {why}; expected 'auto' or comma-separated ports/ranges "
                                            "in 1-65535 that do not overlap", rule, [f"export {name}=auto"])]
    if spans and spans[0][0] <= 1023:
        return [EnvIssue(name, value, WARN, f"{name} includes system ports (<= 1023); the HCCL docs say to avoid them",
                         rule, [f"export {name}=60000-60100   # for example"])]
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
                problems.append(f"{_show(op)} is not an operation ({', '.join(algo['ops'])})")
        elif len(segments) > 1:
            problems.append(f"{_show(seg)}: with several segments each must start with op=")
        levels = {}
        for part in body.split(";"):
            key, sep, val = part.partition(":")
            if not sep:
                problems.append(f"{_show(part)} is not level<N>:<algorithm>")
                continue
            levels[key] = val
            if key == "level0":
                if val != "NA":
                    problems.append(f"level0 is {_show(val)}; level0 must be NA")
            elif key in ("level1", "level2"):
                if val not in algo[key]:
                    problems.append(f"{key} algorithm {_show(val)} is not one of {', '.join(algo[key])}")
            else:
                problems.append(f"{_show(key)} is not level0, level1 or level2")
        if "level0" not in levels and levels:
            problems.append("level0:NA is missing")
    if problems:
        return [EnvIssue(name, value, FAIL, f"HCCL_ALGO={_show(value)}: " + "; ".join(problems[:4]), "H7",
                         ["unset HCCL_ALGO   # let HCCL choose", "export HCCL_ALGO=\"level0:NA;level1:ring\"   # the documented form"])]
    phasing = [a for a in algo.get("phasing_out", []) if re.search(rf":{re.escape(a)}(;|/|$)", value)]
    if phasing:
        return [EnvIssue(name, value, WARN, f"HCCL_ALGO uses {', '.join(phasing)}, which the HCCL docs say is being phased out",
                         "H7", ["export HCCL_ALGO=\"level0:NA;level1:NHR\""])]
    return []


def _check_op_retry_enable(spec, name, value, env, family):
    items = dict(p.split(":", 1) for p in value.split(",") if ":" in p)
    ok = (len(items) == len(value.split(",")) and set(items) <= {"L1", "L2"} and items
          and all(v in ("0", "1") for v in items.values()))
    if not ok:
        return [EnvIssue(name, value, FAIL, f"{name}={_show(value)} is not of the form L1:0|1,L2:0|1", "H12",
                         [f"export {name}=\"L1:0,L2:0\""])]
    if "1" in items.values() and env.get("HCCL_OP_EXPANSION_MODE", "AI_CPU") != "AI_CPU":
        return [EnvIssue(name, value, WARN, f"{name} turns retry on, but it needs HCCL_OP_EXPANSION_MODE=AI_CPU "
                                            f"(it is {env.get('HCCL_OP_EXPANSION_MODE')}); retry will not happen", "H12",
                         ["export HCCL_OP_EXPANSION_MODE=AI_CPU"], {"HCCL_OP_EXPANSION_MODE": env.get("HCCL_OP_EXPANSION_MODE", "")})]
    return []


def _check_op_retry_params(spec, name, value, env, family):
    fields = spec["fields"]
    problems = []
    for part in value.split(","):
        key, sep, val = part.partition(":")
        if not sep or key not in fields:
            problems.append(f"{_show(part)} is not one of {', '.join(k + ':<n>' for k in fields)}")
            continue
        n = _int(val)
        lo, hi = fields[key]
        if n is None or not lo <= n <= hi:
            problems.append(f"{key} is {_show(val)}, expected {lo}-{hi}")
    if problems:
        return [EnvIssue(name, value, FAIL, f"{name}: " + "; ".join(problems), "H12", [f"export {name}=\"{spec['default']}\""])]
    return []


def _check_string(spec, name, value, env, family):
    if len(value) > spec["max_length"]:
        return [EnvIssue(name, value, FAIL, f"{name} is {len(value)} characters; at most {spec['max_length']} allowed", "H12",
                         [f"export {name}=<a shorter id>"])]
    return []


def _check_dfs_config(spec, name, value, env, family):
    # Only the ranges are documented here (§5.1), not the separator syntax: check known keys' values, ignore the rest.
    problems = []
    for key, val in re.findall(r"(\w+)\s*[:=]\s*([^,;\s]+)", value):
        if key == "connection_fault_detection_time":
            n = _int(val)
            if n is None or not (n == 0 or 20 <= n <= 7200):
                problems.append(f"connection_fault_detection_time is {_show(val)}, expected 0 or 20-7200 s")
        elif key in ("cluster_heartbeat", "stuck_detection") and val not in ("on", "off"):
            problems.append(f"{key} is {_show(val)}, expected on or off")
        elif key == "inconsistent_check" and val not in ("on", "first", "off"):
            problems.append(f"inconsistent_check is {_show(val)}, expected on, first or off")
        elif key == "task_monitor_interval":
            n = _int(val)
            if n is None or not 0 <= n <= 7200000:
                problems.append(f"task_monitor_interval is {_show(val)}, expected 0-7200000 ms")
    if problems:
        return [EnvIssue(name, value, FAIL, f"{name}: " + "; ".join(problems), "H12", [f"unset {name}   # the defaults"])]
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
        shown = f"HCCL_INTRA_PCIE_ENABLE={pcie if pcie is not None else '(unset)'}, " \
                f"HCCL_INTRA_ROCE_ENABLE={roce if roce is not None else '(unset)'}"
        out.append(EnvIssue("HCCL_INTRA_PCIE_ENABLE", pcie or "", FAIL,
                            f"{shown} is a combination HCCL does not support; use PCIE=1,ROCE=0 (PCIe, the default) "
                            "or PCIE=0,ROCE=1 (RoCE)", "H5",
                            ["export HCCL_INTRA_PCIE_ENABLE=1 HCCL_INTRA_ROCE_ENABLE=0   # intra-server over PCIe",
                             "or: export HCCL_INTRA_PCIE_ENABLE=0 HCCL_INTRA_ROCE_ENABLE=1   # over RoCE"],
                            {"HCCL_INTRA_ROCE_ENABLE": roce if roce is not None else "(unset)"}))
    if env.get("HCCL_WHITELIST_DISABLE") == "0" and not env.get("HCCL_WHITELIST_FILE"):
        out.append(EnvIssue("HCCL_WHITELIST_DISABLE", "0", FAIL, "HCCL_WHITELIST_DISABLE=0 turns the host whitelist on, but "
                            "HCCL_WHITELIST_FILE is not set: connections will be refused", "H3",
                            ["export HCCL_WHITELIST_FILE=/path/whitelist.json   # {\"host_ip\": [\"<peer host IPs>\"]}",
                             "or: export HCCL_WHITELIST_DISABLE=1"]))
    det = env.get("HCCL_DETERMINISTIC", "").lower()
    size = _int(env.get("RANK_SIZE", "") or "")
    if det == "strict" and size is not None and size < 3:
        out.append(EnvIssue("HCCL_DETERMINISTIC", env["HCCL_DETERMINISTIC"], WARN, f"HCCL_DETERMINISTIC=strict needs a rank "
                            f"size of at least 3; RANK_SIZE is {size}", "H12", ["export HCCL_DETERMINISTIC=true"],
                            {"RANK_SIZE": env.get("RANK_SIZE", "")}))
    return out


def _scope_issues(spec: dict, name: str, value: str, family: Optional[str]) -> List[EnvIssue]:
    """A valid value that only takes effect on some products (the reference's product-support list): say where."""
    scope = spec.get("applies_to")
    if not scope or value.strip() != scope["value"]:
        return []
    where = scope["families"]
    fix = [f"unset {name}   # unless this node is one of those products", "npu-smi info   # the product and chip here"]
    if family in where:
        text = where[family]
        msg = (f"{name}={value} is not supported on {FAMILY_NAMES.get(family, family)}" if text is None else
               f"{name}={value} takes effect on {FAMILY_NAMES.get(family, family)} {text}")
    else:
        listed = "; ".join(f"{FAMILY_NAMES.get(f, f)}: {t or 'not supported'}" for f, t in where.items())
        msg = f"{name}={value} ({scope['note']}) takes effect only on some products ({listed}); the family here is unknown"
    return [EnvIssue(name, value, WARN, f"{msg} [{scope['source']}]", RULES.get(name, "H12"), fix)]


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
            note = spec.get("note", "")
            if name == "HCCL_CONNECT_TIMEOUT":
                note = f"waits {int(value) + 20} s in total (value + 20 s)"
            checked[name] = f"{value}" + (f" ({note})" if note else "")
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
                out.append(EnvIssue(name, value, WARN, f"{name} is {spec.get('note', 'a legacy name')}; current CANN "
                                                       "releases may ignore it", "H12", [f"unset {name}"]))
            continue
        if not name.strip().upper().replace("-", "_").startswith(prefixes):
            continue
        guess = suggest_name(name)
        if guess:
            message = (f"{name} is not a variable HCCL/CANN/MindSpore reads; did you mean {guess}? "
                       "As spelled, the setting is silently ignored")
            if guess in env:
                fix = [f"unset {name}   # {guess} is set too and is the one read; its value is judged on its own"]
            else:
                moved = [i for i in validate_hccl_env({guess: value}, family)[0] if i.name == guess]
                fix = [f"unset {name}"] + (moved[0].fix if moved else [f"export {guess}={value}"])
                if moved:
                    message += f"; the value it would pass is not valid either ({moved[0].message})"
            out.append(EnvIssue(name, value, WARN, message, "H12", fix))
        elif name.upper().startswith("HCCL_"):
            out.append(EnvIssue(name, value, WARN, f"{name} is not in the documented HCCL variable list (CANN 9.x docs); "
                                                   "if it is meant for HCCL, check the spelling: unknown names are ignored",
                                "H12", ["env | grep ^HCCL_   # compare with the HCCL environment-variable reference"]))
    return out
