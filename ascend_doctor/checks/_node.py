"""What the rank-table and launch checks need to know about this node's devices."""

from __future__ import annotations

import re
from typing import Optional, Set

# The families whose facts.npu.soc_family value the HCCL tables use.
KNOWN_FAMILIES = ("910", "910B", "910_93", "310P", "310", "950")


def node_device_ids(facts) -> Optional[Set[int]]:
    """Physical device ids on this node (npu-smi devices, else /dev/davinciN), or None when unknown."""
    npu = facts.npu
    ids = {d.device_id for d in npu.devices if d.device_id is not None}
    if ids:
        return ids
    for node in npu.dev_nodes:
        m = re.search(r"davinci(\d+)$", node)
        if m:
            ids.add(int(m.group(1)))
    return ids or None


def node_family(facts) -> Optional[str]:
    fam = facts.npu.soc_family
    return fam if fam in KNOWN_FAMILIES else None
