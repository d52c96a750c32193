"""ACL_RETURN_CODE (data/kb/field_cases.json, pattern written by scripts/build_acl_code_rule.py): a documented
AscendCL return code in a wrapper's error phrase names the code's meaning; a pid, step or size never does, and a code
with an entry of its own or one that only says a call failed is left to those entries."""

import importlib.util
import json
import os
import re

import pytest

from ascend_doctor.data import data_path
from ascend_doctor.kb.load import load_knowledge_base
from tests.helpers import REPO

KB = load_knowledge_base()
SIG = KB.signature("ACL_RETURN_CODE")
TABLE = json.load(open(data_path("acl_return_codes.json"), encoding="utf-8"))["codes"]


def _builder():
    spec = importlib.util.spec_from_file_location("build_acl_code_rule",
                                                  os.path.join(REPO, "scripts", "build_acl_code_rule.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_pattern_is_what_the_table_and_the_entries_give():
    b = _builder()
    assert SIG.pattern == b.pattern(TABLE, KB.signatures), "run scripts/build_acl_code_rule.py"


def test_it_covers_documented_codes_only_and_leaves_envelopes_and_own_entries_out():
    listed = {c for c in (f"{n:06d}" for n in range(100000, 600000)) if SIG.search(f"runtime result = {c}")}
    assert listed and listed <= set(TABLE)
    assert not any(TABLE[c].get("envelope") for c in listed)
    # own entries: by id (507014, 107002), or a root entry reading the code (507015/507035 CANN_EZ9999_AICORE_EXCEPTION,
    # 561xxx ACLNN_INNER_ERROR_561XXX); envelopes: 507011, 500001
    for own in ("507014", "107002", "161002", "507015", "507035", "561103", "507011", "500001"):
        assert own not in listed
    assert {"107000", "107020", "207001", "207004", "507046", "161001"} <= listed


@pytest.mark.parametrize("line,code", [
    ("synchronize stream failed, runtime result = 507046[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
     "507046"),
    ("[ERROR] [Bisheng] Kernel binary register failure! ret 107000", "107000"),
    ("rtMalloc failed, ret:207001", "207001"),
    # PaddleCustomDevice's NPU op runner (PADDLE_ENFORCE_NPU_SUCCESS): 'the error code is : N'
    ("OSError: (External)  ACL error, the error code is : 207001.  (at /paddle/backends/npu/kernels/funcs/"
     "npu_op_runner.cc:443)", "207001"),
    ("RuntimeError: getDeviceCount:NPUFunctions.cpp NPU function error: aclrtGetDeviceCount(&device_count), error code "
     "is 207004", "207004"),
    ("[aclnn_add.cpp:80][NNOP][CheckNotNull][360969] errno[161001] OpName:[aclnnAdd_1] self is null", "161001"),
    ("rtMalloc failed, ErrCode=207001, desc=[memory allocation error]", "207001"),
])
def test_each_wrapper_form_names_the_code_and_its_meaning(line, code):
    assert SIG.search(line)
    title = SIG.text("en", line=line)[0]
    assert code in title and TABLE[code]["name"] in title and TABLE[code]["meaning"] in title


@pytest.mark.parametrize("line", [
    "[INFO] HCCL(507046,python):2024-07-12-10:00:00.000.000 [op_base.cc:100][507046]Entry-HcclCommInitRootInfo",
    "epoch: 3 step: 207000, loss is 0.41",
    "[INFO] RUNTIME(107000,python):2024-07-12 Malloc size=207001 bytes, ret=0",
    "runtime result = 1070001",
    "iteration 561103/600000 | consumed samples: 561103",
    "retCode=0x26, [aicore exception]",
    "[WARNING] GE(207000,python): ret 0 after 107000 ms",
    "[INFO] OP(107020,python):2024-07-12-10:00:00.000.000 [aclnn_add.cpp:80][NNOP][107020] errno[0] OpName:[aclnnAdd_1]",
    "[INFO] RUNTIME(507046,python):2024-07-12 rtMalloc ok, ErrCode=0, size=507046",
    "Load 507046 files failed: 0 (report id 107020)",
    "retcode: 0x507046",
])
def test_numbers_that_are_not_a_returned_code_name_nothing(line):
    assert not SIG.search(line)


def test_without_a_line_the_entry_reads_generically():
    title, cause, fix = SIG.text("en")
    assert "{" not in title + cause + "".join(fix) and "(the number in the line)" in title
    assert not re.search(r"\d{6}", title)
