"""The doctor's own data files: the compatibility matrix and the knowledge base.

`data/` lives at the repository's top level (the source of truth) and is
packaged into the wheel as `ascend_doctor/data/`. Both places are looked up, so
a source checkout and an installed wheel behave the same.
"""

from __future__ import annotations

import json
import os
from typing import Any, Optional

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))


class DataError(Exception):
    pass


def data_path(name: str) -> str:
    for base in (os.path.join(_PKG_DIR, "data"), os.path.join(os.path.dirname(_PKG_DIR), "data")):
        candidate = os.path.join(base, name)
        if os.path.isfile(candidate):
            return candidate
    raise DataError(f"data file {name} not found next to the package; the installation is incomplete")


def load_json_file(path: str, expected: str = "JSON") -> Any:
    """Parse a JSON file, or raise DataError with one line naming the file and what was expected."""
    try:
        if not os.path.isfile(path):  # a FIFO or a device would block or never end
            raise OSError(0, "not a regular file")
        with open(path, "r", encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: line {exc.lineno} column {exc.colno}: {exc.msg}, expected {expected}") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: not UTF-8 text, expected {expected}") from None
    except RecursionError:
        raise DataError(f"{path}: nested too deeply, expected {expected}") from None


_matrix_cache: Optional[Any] = None


def load_matrix():
    """The compatibility matrix (`ascend_doctor.matrix.Matrix`): the newer of the bundled file and a
    `matrix update` download in the user's cache. Loaded once per process."""
    global _matrix_cache
    if _matrix_cache is None:
        from .matrix import load_matrix as _load

        _matrix_cache = _load()
    return _matrix_cache
