"""Which MindSpore releases lie between two versions, and where their breaking changes are written.

Data in `data/release_notes.json` (kept with the compatibility matrix, swapped the same way).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .data import load_data_file
from .i18n import _
from .versions import pep440_version

def load_release_notes() -> Dict[str, Any]:
    return load_data_file("release_notes.json")


def where_to_read(version: str, notes: Optional[Dict[str, Any]] = None) -> str:
    loc = (notes or load_release_notes())["notes_location"]
    return _("see RELEASE.md of release {version}: {repo} {path}, section '{section}' ({headings})").format(
        version=version, repo=loc["repo"], path=loc["paths"][0], section=loc["section"].format(version=version),
        headings=", ".join(loc["headings_to_read"][:2]))


def releases_between(old: str, new: str, notes: Optional[Dict[str, Any]] = None) -> Optional[List[Dict[str, Any]]]:
    """Releases a move from `old` to `new` crosses (upgrade: (old, new]; downgrade: (new, old]).

    None when either version is not a version. Each item: {"version", "breaking_changes", "read"}.
    """
    notes = notes or load_release_notes()
    a, b = pep440_version(old), pep440_version(new)
    if a is None or b is None:
        return None
    lo, hi = (a, b) if a <= b else (b, a)
    out = []
    for rel in notes["releases"]:
        v = pep440_version(rel["version"])
        if v is not None and lo < v <= hi:
            out.append({"version": rel["version"], "breaking_changes": rel.get("breaking_changes") or [],
                        "read": where_to_read(rel["version"], notes)})
    return out
