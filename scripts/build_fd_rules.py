#!/usr/bin/env python3
"""Write data/ascend_fd_rules.json: each ascend-fd fault id's own line rule, from the facts of its knowledge base.

    python scripts/build_fd_rules.py [FACTS]   # default ../shared/reference/ascend_fd_kb_facts.json

The facts file holds, per fault id of ascend-fd's kg-config.json (github.com/Ascend/mind-cluster,
component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json, Apache-2.0), the strings one log line must
contain (`all_of`: a list of strings, or a list of alternatives, each a list) or its `regex`; ascend-fd matches a
line by them (`FileParser.match_event`, component/ascend-faultdiag/src/ascend_fd/pkg/parse/knowledge_graph/parser/
file_parser.py). triage attaches an id to a problem only where that rule holds on a matched line
(kb.peers.peer_ids). Generic error-code entries name the code as ascend-fd does: their `attr_regex` group
(`complement`, `error_code`) is appended (`AISW_CANN_ERRCODE_Custom_EE1002`). An id with neither rule is
`derived` (ascend-fd infers it from other faults).
"""

from __future__ import annotations

import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = os.path.join(os.path.dirname(REPO), "shared", "reference", "ascend_fd_kb_facts.json")
OUT = os.path.join(REPO, "data", "ascend_fd_rules.json")
CODE_GROUPS = ("complement", "error_code")
# Ids the facts list without a line rule whose rule is in ascend-fd's source, not in kg-config.json: the hccn_tool
# output parsers of component/ascend-faultdiag/src/ascend_fd/pkg/parse/knowledge_graph/parser/npu_info_parser.py
# (LinkDownParser LINK_DOWN_PARSERS, FecModeParser FEC_INFO_PARSER + _check_fec_status, NetHealthInfoParser
# NET_HEALTH_PARSER + its focused_status, OpticalInfoParser regex_detail_func's present_regex).
SOURCE_RULES = {
    "Comp_Network_Custom_01": r"\[devid \d{1,3}\]    \w{3} \w{3} .?[0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4}    LINK DOWN",
    "Comp_Network_Custom_02": r"fec mode: no FEC mode",
    "Comp_Network_Custom_03": r"net health status: (?:Socket failed|Receive timeout|Unreachable|Detect ip set)",
    "Comp_Network_Custom_05": r"present\s{0,20}: not present",
}


def build(facts: dict) -> dict:
    rules = {}
    for e in facts["entries"]:
        rule: dict = {}
        all_of = e.get("all_of")
        if all_of:
            rule["all_of"] = [list(a) for a in all_of] if isinstance(all_of[0], list) else [list(all_of)]
        if e.get("regex"):
            rule["regex"] = e["regex"]
        attr = e.get("attr_regex") or ""
        group = next((g for g in CODE_GROUPS if f"(?P<{g}>" in attr), None)
        if group:
            re.compile(attr)
            rule["code"] = attr
            rule["code_group"] = group
        if not rule and e["id"] in SOURCE_RULES:
            rule["regex"] = SOURCE_RULES[e["id"]]
        if not rule:
            rule["derived"] = True
        rules[e["id"]] = rule
    return {
        "schema": "ascend-doctor.fd-rules/1",
        "source": "ascend-fd (MindCluster ascend-faultdiag, Apache-2.0): github.com/Ascend/mind-cluster, "
                  "component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json; the line rules only "
                  "(built by scripts/build_fd_rules.py from the facts extracted at commit "
                  "22bb3d987bc0208c3eb7395e222b661276133c58); Comp_Network_Custom_01/02/03/05 from the hccn_tool "
                  "output parsers of component/ascend-faultdiag/src/ascend_fd/pkg/parse/knowledge_graph/parser/"
                  "npu_info_parser.py",
        "rules": dict(sorted(rules.items())),
    }


def main() -> int:
    src = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    with open(src, encoding="utf-8") as fh:
        data = build(json.load(fh))
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(f"{OUT}: {len(data['rules'])} ids")
    return 0


if __name__ == "__main__":
    sys.exit(main())
