"""data/kb/families_mend_r23_ms.json: the round-23 mend for MindSpore: names a MindSpore release removed or added
(mindspore._checkparam's Rel/Validator, the mindspore.nn layers and losses added in 2.0, the mindspore.nn names 2.0
removed), a source dataset that found no valid data, oneDNN's primitive errors of the CPU operators and a segmentation
fault of MindSpore Lite's benchmark. The entries of other parts this mend widened say what their line shows:
MS_API_REMOVED_OR_MOVED the name and the module, PROCESS_SEGFAULT the job-control form `[1] - Segmentation fault`.
Each entry reads members its examples do not show, says the member in its title, stays quiet on ordinary lines and on
every clean corpus excerpt; one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mend_r23_ms")
EXTENDED = ["MS_API_REMOVED_OR_MOVED", "PROCESS_SEGFAULT"]
FAMILY = IDS + EXTENDED + ["MS_DATASET_OP_INPUT_INVALID", "MS_DATASET_FILES_MISSING", "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT",
                           "PY_ASCEND_PACKAGE_NAME_MISSING", "ASCEND_PACKAGE_ATTRIBUTE_MISSING", "PY_SCRIPT_EXCEPTION"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert sorted(IDS) == ["MSLITE_BENCHMARK_SEGFAULT", "MS_CHECKPARAM_REL_VALIDATOR_REMOVED", "MS_DATASET_NO_VALID_DATA",
                           "MS_NN_NAME_ADDED_IN_2_0", "MS_NN_NAME_REMOVED_IN_2_0", "ONEDNN_PRIMITIVE_FAILED"]
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mend_r23_ms.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid


MEMBERS = [
    ("AttributeError: module 'mindspore._checkparam' has no attribute 'Rel'", "MS_CHECKPARAM_REL_VALIDATOR_REMOVED",
     "`Rel` not found in `mindspore._checkparam`: MindSpore 2.0 removed it"),
    ("ImportError: cannot import name 'rel_strs' from 'mindspore._checkparam' (/opt/conda/lib/python3.9/site-packages/"
     "mindspore/_checkparam.py)", "MS_CHECKPARAM_REL_VALIDATOR_REMOVED", "`rel_strs` not found"),
    ("AttributeError: module 'mindspore.nn' has no attribute 'MultiheadAttention'", "MS_NN_NAME_ADDED_IN_2_0",
     "`MultiheadAttention` not found in `mindspore.nn`: it was added in MindSpore 2.0"),
    ("ImportError: cannot import name 'PixelShuffle' from 'mindspore.nn' (/home/u/.local/lib/python3.8/site-packages/"
     "mindspore/nn/__init__.py)", "MS_NN_NAME_ADDED_IN_2_0", "`PixelShuffle` not found in `mindspore.nn`"),
    ("AttributeError: module 'mindspore.nn' has no attribute 'KLDivLoss'", "MS_NN_NAME_ADDED_IN_2_0", "`KLDivLoss`"),
    ("ImportError: cannot import name 'MultiHeadAttention' from 'mindspore.nn' (/x/site-packages/mindspore/nn/__init__.py)",
     "MS_NN_NAME_REMOVED_IN_2_0", "`MultiHeadAttention` not found in `mindspore.nn`: MindSpore 1.10 has it, MindSpore 2.0 "
     "removed it"),
    ("AttributeError: module 'mindspore.nn' has no attribute 'TransformerOpParallelConfig'", "MS_NN_NAME_REMOVED_IN_2_0",
     "`TransformerOpParallelConfig`"),
    ("ImportError: cannot import name 'Conv2dBnFoldQuant' from 'mindspore.nn' (/x/mindspore/nn/__init__.py)",
     "MS_NN_NAME_REMOVED_IN_2_0", "`Conv2dBnFoldQuant`"),
    ("ImportError: cannot import name 'ms_function' from 'mindspore' (/usr/local/lib/python3.11/site-packages/mindspore/"
     "__init__.py)", "MS_API_REMOVED_OR_MOVED", "MindSpore API not found: `ms_function` is not in `mindspore`"),
    ("AttributeError: module 'mindspore.ops' has no attribute 'ScatterNdMaxGrad'", "MS_API_REMOVED_OR_MOVED",
     "`ScatterNdMaxGrad` is not in `mindspore.ops`"),
    ("ImportError: cannot import name 'Upsample' from 'mindspore.nn.layer' (/x/mindspore/nn/layer/__init__.py)",
     "MS_API_REMOVED_OR_MOVED", "`Upsample` is not in `mindspore.nn.layer`"),
    ("ModuleNotFoundError: No module named 'mindspore.nn.transformer'", "MS_API_REMOVED_OR_MOVED",
     "`transformer` is not in `mindspore.nn`"),
    ("ModuleNotFoundError: No module named 'mindspore.nn.layer.quant'", "MS_API_REMOVED_OR_MOVED",
     "`quant` is not in `mindspore.nn.layer`"),
    ("RuntimeError: Unexpected error. There is no valid data matching the dataset API Cifar100Dataset.Please check file "
     "path or dataset API validation first.", "MS_DATASET_NO_VALID_DATA", "MindSpore dataset `Cifar100Dataset` found no "
     "valid data"),
    ("RuntimeError: Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. Invalid data, no "
     "valid data matching the dataset API MnistDataset. Please check file path or dataset API.", "MS_DATASET_NO_VALID_DATA",
     "`MnistDataset` found no valid data"),
    ("RuntimeError: Invalid data, no valid data matching the dataset API 'CityscapesDataset'. Please check dataset API or "
     "file path: /data/cityscapes.", "MS_DATASET_NO_VALID_DATA", "`CityscapesDataset` found no valid data in "
     "`/data/cityscapes`"),
    ("[ERROR] Invalid data, no valid data found in path: /home/u/cmu_arctic", "MS_DATASET_NO_VALID_DATA",
     "found no valid data in `/home/u/cmu_arctic`"),
    ("RuntimeError: could not create a primitive", "ONEDNN_PRIMITIVE_FAILED",
     "oneDNN (MKL-DNN), the CPU kernel library of the framework, could not create a primitive:"),
    ("RuntimeError: could not create a primitive descriptor for the convolution forward propagation primitive. Run "
     "workload with environment variable ONEDNN_VERBOSE=all to get additional diagnostic information.",
     "ONEDNN_PRIMITIVE_FAILED", "could not create a primitive descriptor for the `convolution forward propagation` "
     "primitive"),
    ("RuntimeError: could not create a primitive descriptor for a deconvolution forward propagation primitive",
     "ONEDNN_PRIMITIVE_FAILED", "for the `deconvolution forward propagation` primitive"),
    ("RuntimeError: could not execute a primitive", "ONEDNN_PRIMITIVE_FAILED", "could not execute a primitive"),
    ("RuntimeError: could not create a primitive descriptor iterator", "ONEDNN_PRIMITIVE_FAILED",
     "could not create a primitive descriptor iterator:"),
    ("RuntimeError: could not create a descriptor for a dilated convolution forward propagation primitive",
     "ONEDNN_PRIMITIVE_FAILED", "could not create a descriptor for the `dilated convolution forward propagation` primitive"),
    ("[1] + Segmentation fault   ./benchmark --device=NPU --modelFile=/data/local/tmp/ssd.ms --numThreads=4",
     "MSLITE_BENCHMARK_SEGFAULT", "MindSpore Lite's benchmark tool crashed with a segmentation fault (SIGSEGV) running "
     "the model `/data/local/tmp/ssd.ms` on `--device=NPU`"),
    ("./bench.sh: line 9: 4411 Segmentation fault      (core dumped) ./benchmark --modelFile=model.ms --loopCount=100",
     "MSLITE_BENCHMARK_SEGFAULT", "running the model `model.ms`"),
    ("[2] - Segmentation fault   ./my_app --input=a.bin", "PROCESS_SEGFAULT",
     "The process crashed with a segmentation fault (SIGSEGV)"),
]


@pytest.mark.parametrize("line, sig_id, said", MEMBERS)
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, owner", [
    ("ImportError: cannot import name 'Rel' from partially initialized module 'mindspore._checkparam' (most likely due "
     "to a circular import) (/x/mindspore/_checkparam.py)", "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT"),
    ("AttributeError: partially initialized module 'mindspore.nn' has no attribute 'Cell' (most likely due to a circular "
     "import)", "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT"),
])
def test_a_circular_import_is_not_called_a_removed_api(kb, line, owner):
    got = [s.id for s in kb.explaining(line)]
    assert owner in got and not set(got) & set(IDS + ["MS_API_REMOVED_OR_MOVED"]), got


QUIET = [
    "from mindspore._checkparam import Rel  # MindSpore 1.x only",
    "ImportError: cannot import name 'Rel' from 'mycheck._checkparam' (/x/mycheck/_checkparam.py)",
    "ImportError: cannot import name 'MultiheadAttention' from 'torch.nn' (/x/torch/nn/__init__.py)",
    "self.attn = nn.MultiheadAttention(embed_dim, num_heads)",
    "[INFO] MD(1,python):2026-01-01 cifar_op.cc:200] Cifar operator found file at /data/cifar/data_batch_1.bin.",
    "dataset = ds.Cifar10Dataset(dataset_dir, usage='train')  # no valid data means a wrong folder",
    "onednn_verbose,primitive,exec,cpu,convolution,jit:avx2,forward_training,src_f32::blocked:acdb::f0",
    "./benchmark --modelFile=./models/mobilenet_v2_1.0_224.ms --device=GPU",
    "Segmentation fault handler installed for benchmark --modelFile=a.ms",
    "epoch: 1 step: 10, loss is 2.3011",
]


@pytest.mark.parametrize("line", QUIET)
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS + EXTENDED) == []
    for sid in IDS:
        for line in kb.signature(sid).examples:
            assert [s.id for s in kb.explaining(line) if s.id in FAMILY] == [sid], (sid, line)
