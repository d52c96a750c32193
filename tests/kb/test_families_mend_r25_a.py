"""data/kb/families_mend_r25_a.json: round 25's mends for the GPU stack (heldout32's first half, read as a seen set):
PyTorch's indexed assignment whose value and selection differ and its index tensors that do not broadcast,
compute-sanitizer's invalid memory access reports, nn.Module.__getattr__'s missing names (the property case said), a
__getattr__ that falls back to object.__getattr__, and the KeyError of a well-known environment variable that is not
set. Also the precision mends of two existing entries:
CUDA_LIB_VERSION_MISMATCH_SYMBOL (the symbol and, where the line has it, the library version said; an unversioned
symbol no longer called a version mismatch) and NCCL_CALL_FAILED's `unhandled cuda error` (the CUDA error may be an
earlier call's). Each entry reads members its examples do not show, says the member in its title, stays quiet on
ordinary lines and on every clean corpus excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids, statements

IDS = part_ids("families_mend_r25_a")
FAMILY = IDS + ["PY_OBJECT_ATTRIBUTE_MISSING", "PY_DICT_KEY_NOT_FOUND", "PY_LAUNCHER_ENV_VARIABLE_NOT_SET",
                "CANN_ENV_VARIABLE_KEYERROR", "NUMPY_SHAPES_NOT_BROADCASTABLE", "CUDA_LIB_VERSION_MISMATCH_SYMBOL"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 6 and "TORCH_INDEX_PUT_VALUE_SHAPE_MISMATCH" in IDS and "PY_KEYERROR_KNOWN_ENV_VARIABLE" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mend_r25_a.json" and not sig.ascend_fd
        assert sig.kind == "root" and not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("RuntimeError: shape mismatch: value tensor of shape [1037] cannot be broadcast to indexing result of shape [1036]",
     "TORCH_INDEX_PUT_VALUE_SHAPE_MISMATCH", "a value of shape `[1037]` where the elements the index selects have "
     "shape `[1036]`"),
    ("[rank3]: RuntimeError: shape mismatch: value tensor of shape [52, 256, 16, 64] cannot be broadcast to indexing "
     "result of shape [52, 256, 16, 16]", "TORCH_INDEX_PUT_VALUE_SHAPE_MISMATCH", "`[52, 256, 16, 64]`"),
    ("IndexError: shape mismatch: indexing tensors could not be broadcast together with shapes [7], [5], [7]",
     "TORCH_INDEXING_TENSORS_NOT_BROADCASTABLE", "whose shapes `[7], [5], [7]` do not broadcast together"),
    ("========= Invalid __local__ read of size 16 bytes", "CUDA_SANITIZER_INVALID_MEMORY_ACCESS",
     "(`Invalid __local__ read of size 16 bytes`): a thread's read of `__local__` memory"),
    ("=========   Invalid __shared__ write of size 2 bytes", "CUDA_SANITIZER_INVALID_MEMORY_ACCESS",
     "a thread's write of `__shared__` memory was out of bounds or at a misaligned address"),
    ("Invalid __global__ write of size 4 bytes", "CUDA_SANITIZER_INVALID_MEMORY_ACCESS", "`__global__`"),
    ("torch.nn.modules.module.ModuleAttributeError: 'DataParallel' object has no attribute 'fc'",
     "TORCH_MODULE_GETATTR_NOT_FOUND", "The `DataParallel` module (an nn.Module) has no parameter, buffer, submodule "
     "or attribute `fc`"),
    ("[rank1]: torch.nn.modules.module.ModuleAttributeError: 'DistributedDataParallel' object has no attribute "
     "'backbone'", "TORCH_MODULE_GETATTR_NOT_FOUND", "`DistributedDataParallel` module"),
    ("            raise AttributeError(\"'{}' object has no attribute '{}'\".format(", "TORCH_MODULE_GETATTR_NOT_FOUND",
     "An nn.Module has no parameter, buffer, submodule or attribute of the name in the AttributeError under this line"),
    ("-->  944         raise AttributeError(f\"'{type(self).__name__}' object has no attribute '{name}'\")",
     "TORCH_MODULE_GETATTR_NOT_FOUND", "an AttributeError raised inside a @property getter is reported as this name"),
    ("[rank0]: AttributeError: type object 'object' has no attribute '__getattr__'",
     "PY_OBJECT_GETATTR_FALLBACK_MISSING", "calls `object.__getattr__`, which Python's `object` does not have"),
    ("KeyError: 'CUDA_PATH'", "PY_KEYERROR_KNOWN_ENV_VARIABLE", "the environment variable `CUDA_PATH`"),
    ("[rank1]: KeyError: 'LD_PRELOAD'", "PY_KEYERROR_KNOWN_ENV_VARIABLE", "`LD_PRELOAD`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "    dense_feature[:, coords[:, 0], coords[:, 1]] = sparse_features", "value tensor of shape [8] assigned",
    "========= COMPUTE-SANITIZER", "========= ERROR SUMMARY: 0 errors", "=========     Address 0x7f00 is out of bounds",
    "=========     by thread (0,4,0) in block (8195,0,0)", "Invalid argument of size 4 given to the parser",
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1501, in _call_impl',
    "    def __getattr__(self, name):", "        return object.__getattribute__(self, name)", "    raise AttributeError(",
    '  File "/v/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1967, in __getattr__',
    '  File "<frozen os>", line 679, in __getitem__', '  File "/usr/lib/python3.8/os.py", line 675, in __getitem__',
    "        raise AttributeError(f\"'{type(self).__name__}' has no field '{name}'\")",
    '  File "/x/torch/utils/data/dataset.py", line 52, in __getitem__', '  File "/x/pkg/chaos.py", line 3, in __getitem__',
    "LD_LIBRARY_PATH=/usr/local/cuda/lib64", "KeyError: 'LD_LIBRARY_PATH_EXTRA'", "export CUDA_HOME=/usr/local/cuda",
    "    os.environ['LD_LIBRARY_PATH'] = lib_dir",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_the_lines_other_entries_read_stay_theirs(kb):
    # a bare AttributeError (no nn.Module frame) and a KeyError of another key keep their generic entries; numpy's
    # message stays numpy's; torchrun's and CANN's variables stay their entries'
    explained_title(kb, "AttributeError: 'A' object has no attribute 'foo'", "PY_OBJECT_ATTRIBUTE_MISSING", among=FAMILY)
    explained_title(kb, "AttributeError: type object 'Config' has no attribute 'depth'", "PY_OBJECT_ATTRIBUTE_MISSING",
                    among=FAMILY)
    explained_title(kb, "KeyError: 'batch_size'", "PY_DICT_KEY_NOT_FOUND", among=FAMILY)
    explained_title(kb, "KeyError: 'LOCAL_RANK'", "PY_LAUNCHER_ENV_VARIABLE_NOT_SET", among=FAMILY)
    explained_title(kb, "KeyError: 'ASCEND_HOME_PATH'", "CANN_ENV_VARIABLE_KEYERROR", among=FAMILY)
    explained_title(kb, "ValueError: shape mismatch: value array of shape (3,4) could not be broadcast to indexing "
                        "result of shape (2,4)", "NUMPY_SHAPES_NOT_BROADCASTABLE", among=FAMILY)


TRACEBACKS = [
    # a traceback that prints nn.Module.__getattr__'s raise on one line: its source line is this part's, the
    # AttributeError under it stays the generic entry's (the code line names nothing a specific entry would lose)
    ("Traceback (most recent call last):\n"
     "  File \"test.py\", line 12, in <module>\n"
     "    print(a.foo)\n"
     "  File \"/opt/py/lib/python3.9/site-packages/torch/nn/modules/module.py\", line 1614, in __getattr__\n"
     "    raise AttributeError(\"'{}' object has no attribute '{}'\".format(\n"
     "AttributeError: 'A' object has no attribute 'foo'\n",
     [("TORCH_MODULE_GETATTR_NOT_FOUND", "an AttributeError raised inside a @property getter is reported as this name"),
      ("PY_OBJECT_ATTRIBUTE_MISSING", "An object of class `A` has no attribute `foo`")]),
    # run here: torch 2.13.0 prints only `raise AttributeError(` (the statement's first line): the frame makes no FAIL
    ("Traceback (most recent call last):\n"
     "  File \"/tmp/prop.py\", line 10, in <module>\n"
     "    print(a.foo)\n"
     "          ^^^^^\n"
     "  File \"/v/lib/python3.11/site-packages/torch/nn/modules/module.py\", line 1967, in __getattr__\n"
     "    raise AttributeError(\n"
     "AttributeError: 'A' object has no attribute 'foo'\n",
     [("PY_OBJECT_ATTRIBUTE_MISSING", "An object of class `A` has no attribute `foo`")]),
    # run here: Python 3.11.7; a well-known variable is this part's, torchrun's stays the launcher entry's
    ("Traceback (most recent call last):\n"
     "  File \"/tmp/env2.py\", line 2, in <module>\n"
     "    home = os.environ[\"CUDA_HOME\"]\n"
     "           ~~~~~~~~~~^^^^^^^^^^^^^\n"
     "  File \"<frozen os>\", line 679, in __getitem__\n"
     "KeyError: 'CUDA_HOME'\n", [("PY_KEYERROR_KNOWN_ENV_VARIABLE", "the environment variable `CUDA_HOME`")]),
    ("Traceback (most recent call last):\n"
     "  File \"train.py\", line 5, in <module>\n"
     "    rank = int(os.environ['RANK'])\n"
     "  File \"/usr/lib/python3.8/os.py\", line 675, in __getitem__\n"
     "    raise KeyError(key) from None\n"
     "KeyError: 'RANK'\n", [("PY_LAUNCHER_ENV_VARIABLE_NOT_SET", "`RANK`")]),
]


@pytest.mark.parametrize("text, want", TRACEBACKS)
def test_a_traceback_gets_one_true_problem_per_line(tmp_path, text, want):
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage.scan import triage_paths

    log = tmp_path / "t.log"
    log.write_text(text, encoding="utf-8")
    got = [(p["id"], p["title"]) for p in triage_paths([str(log)], load_knowledge_base()).to_json()["problems"]]
    assert [i for i, _ in got] == [i for i, _ in want], got
    assert [said for (_, title), (_, said) in zip(got, want) if said not in title] == [], got


OLD_CLAIM = "libcudnn/libcublas/libcudart"  # the old title's claim, for every undefined cu* symbol

# precision mends of existing entries (the audited lines are heldout32's; a regression test, allowed here)
PRECISION = [
    ("ImportError: /mnt/nvme0/code/deepspeed/deepspeed/ops/adam/cpu_adam_op.cpython-38-x86_64-linux-gnu.so: undefined "
     "symbol: curandCreateGenerator", "CUDA_LIB_VERSION_MISMATCH_SYMBOL", 0,
     ["undefined symbol `curandCreateGenerator`: no library loaded defines it",
      "not linked against the CUDA library that defines it"]),
    ("ImportError: /usr/local/lib/python3.9/site-packages/mindspore/lib/plugin/gpu/libcuda_ops.so: undefined symbol: "
     "cudnnGetVersion, version libcudnn.so.8", "CUDA_LIB_VERSION_MISMATCH_SYMBOL", 0,
     ["`cudnnGetVersion`: the binary was built against `libcudnn.so.8`, and the copy of that library loaded is "
      "another version"]),
    ("OSError: /opt/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
     "cublasLtGetStatusString, version libcublasLt.so.11", "CUDA_LIB_VERSION_MISMATCH_SYMBOL", 0,
     ["`cublasLtGetStatusString`", "`libcublasLt.so.11`"]),
    ("  what():  NCCL error in: /opt/conda/conda-bld/pytorch_1570710853631/work/torch/lib/c10d/../c10d/NCCLUtils.hpp:84, "
     "unhandled cuda error", "NCCL_CALL_FAILED", 0,
     ["which can be the error of an earlier kernel or call of the process"]),
    ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, "
     "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3", "NCCL_CALL_FAILED", 0,
     ["which can be the error of an earlier kernel or call of the process"]),
    ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, "
     "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3", "NCCL_CALL_FAILED", 1,
     ["where an error of the same process comes before this line, that error is the cause"]),
    ("RuntimeError: ncclCommInitRank failed: unhandled system error", "NCCL_CALL_FAILED", 0,
     ["a system call or external library under NCCL failed"]),
]


@pytest.mark.parametrize("line, sig_id, field, said", PRECISION)
def test_the_mended_entries_say_what_holds_for_their_line(kb, line, sig_id, field, said):
    text = statements(kb, line)[sig_id][field]
    assert [p for p in said if p not in text] == [], text
    assert OLD_CLAIM not in text
