"""What the rank-table and launch checks need to know about this node's devices."""

from __future__ import annotations

from typing import Optional, Set

# The families whose facts.npu.soc_family value the HCCL tables use.
KNOWN_FAMILIES = ("910", "910B", "910_93", "310P", "310", "950")


def node_device_ids(facts) -> Optional[Set[int]]:
    """Physical device ids on this node (npu-smi devices, else /dev/davinciN), or None when unknown."""
    return set(facts.npu.device_ids) or None


def node_family(facts) -> Optional[str]:
    fam = facts.npu.soc_family
    return fam if fam in KNOWN_FAMILIES else None
