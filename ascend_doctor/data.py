"""The doctor's own data files, each with its schema, and the one loader for them.

`data/` lives at the repository's top level (the source of truth) and is
packaged into the wheel as `ascend_doctor/data/`. Both places are looked up, so
a source checkout and an installed wheel behave the same.

Every data file has a JSON schema beside it (`SCHEMAS`). The shipped files are checked
against them in the test suite (test_data_files.py), not at every start: the doctor
starts fast and the files only change with a release. Files from outside the package
(a downloaded matrix, a user's knowledge-base part) are checked when loaded, by the
module that reads them. This module imports nothing of ours: the matrix, the knowledge
base and the HCCL table all load through it.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any, Dict, List

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))


class DataError(Exception):
    pass


def data_path(name: str) -> str:
    for base in (os.path.join(_PKG_DIR, "data"), os.path.join(os.path.dirname(_PKG_DIR), "data")):
        candidate = os.path.join(base, name)
        if os.path.isfile(candidate):
            return candidate
    from .i18n import _

    raise DataError(_("data file {name} not found next to the package; the installation is incomplete").format(name=name))


def load_json_file(path: str, expected: str = "JSON") -> Any:
    """Parse a JSON file, or raise DataError with one line naming the file and what was expected."""
    try:
        # a FIFO or a device would block or never end; a missing or unreadable file says why (the stat's error)
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise OSError(0, "not a regular file")
        # read as bytes, decoded and its line ends made "\n" as text mode would: text mode's reader (newline
        # translation chunk by chunk) took 6 of the 17 ms the knowledge base's 3 MB of parts cost every command
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8")
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        return json.loads(text)
    except (OSError, ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        from .i18n import _, lookup  # only on the error path: this module imports nothing of ours to load
        from .reasons import json_reason, os_reason

        values = {"path": path, "expected": lookup(expected)}
        if isinstance(exc, OSError):
            raise DataError(_("{path}: cannot read ({reason})").format(path=path, reason=os_reason(exc))) from None
        if isinstance(exc, json.JSONDecodeError):
            raise DataError(_("{path}: line {line} column {column}: {error}, expected {expected}").format(
                line=exc.lineno, column=exc.colno, error=json_reason(exc), **values)) from None
        if isinstance(exc, UnicodeDecodeError):
            raise DataError(_("{path}: not UTF-8 text, expected {expected}").format(**values)) from None
        if isinstance(exc, RecursionError):
            raise DataError(_("{path}: nested too deeply, expected {expected}").format(**values)) from None
        raise


# data file -> its schema (in data/). The knowledge base's parts (data/kb/*.json) follow kb_part.schema.json.
SCHEMAS = {
    "compat_matrix.json": "compat_matrix.schema.json",
    "knowledge_base.json": "knowledge_base.schema.json",
    "hccl_env.json": "hccl_env.schema.json",
    "release_notes.json": "release_notes.schema.json",
    "advice_facts.json": "advice_facts.schema.json",
    "acl_return_codes.json": "acl_return_codes.schema.json",
    "dcmi_return_codes.json": "dcmi_return_codes.schema.json",
    "cann_error_codes.json": "cann_error_codes.schema.json",
    "hccl_result_codes.json": "hccl_result_codes.schema.json",
    "drv_error_codes.json": "drv_error_codes.schema.json",
    "errno_causes.json": "errno_causes.schema.json",
    "serving_error_codes.json": "serving_error_codes.schema.json",
    "torch_npu_error_codes.json": "torch_npu_error_codes.schema.json",
    "ascend_fd_rules.json": "ascend_fd_rules.schema.json",
}
KB_PART_SCHEMA = "kb_part.schema.json"

_loaded: Dict[str, Any] = {}


def load_data_file(name: str) -> Any:
    """A shipped data file, parsed once per process (callers must not modify it). A data file with a schema
    (SCHEMAS) has its top level checked against it on the way in, by the one schema engine (schema.py; the
    full walk is the test suite's, tests/test_data.py): an installed file someone edited or cut short is one
    line naming the file, the field and what was expected (DataError), not a KeyError deep in a check."""
    if name not in _loaded:
        path = data_path(name)
        data = load_json_file(path)
        schema_name = SCHEMAS.get(name)
        if schema_name is not None:
            from .schema import schema_errors

            errors = schema_errors(data, load_data_file(schema_name), limit=1, max_depth=1)
            if errors:
                from .i18n import _

                raise DataError(_("{path}: {error} (the installed data file is broken; reinstall ascend-doctor)")
                                .format(path=path, error=errors[0]))
        _loaded[name] = data
    return _loaded[name]


def data_file_errors(name: str, data: Any = None, limit: int = 50) -> List[str]:
    """'path: problem' lines where a data file (the shipped one, or `data` given for it) breaks its schema."""
    from .schema import schema_errors  # only when validating

    schema_name = SCHEMAS.get(name) or (KB_PART_SCHEMA if name.startswith("kb/") else None)
    if schema_name is None:
        raise DataError(f"data file {name} has no schema in data.SCHEMAS")
    if data is None:
        data = load_json_file(data_path(name))
    return schema_errors(data, load_data_file(schema_name), limit=limit)
