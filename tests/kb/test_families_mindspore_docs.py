"""data/kb/families_mindspore_docs.json: the error cases MindSpore's own documentation describes (error analysis, data
processing, CANN errors, network and operator compilation, the vLLM-MindSpore FAQ), each written for the fault in the
wordings MindSpore's sources print. Each entry reads members its examples do not show and says what the line says (the
operator, the worker count, the file, the column, the data type, the package), stays quiet on ordinary lines and on
every clean excerpt, and gives way where a specific entry knows the line."""

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mindspore_docs")


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    import os

    assert set(IDS) >= {"MS_PARALLEL_STRATEGY_INVALID", "MS_DATASET_NUM_WORKERS_OUT_OF_RANGE",
                        "MS_MINDRECORD_OPEN_FAILED", "MS_GENERATOR_COLUMN_COUNT_MISMATCH", "MS_DATASET_PIPELINE_NOT_TREE",
                        "MS_DATASET_BATCH_SHAPES_INCONSISTENT", "MS_DATASET_USER_PYFUNC_FAILED",
                        "MS_KERNEL_SELECT_FAILED", "MS_OP_BUILD_SERVER_NO_RESPONSE", "TBE_OP_UB_OVERFLOW"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mindspore_docs.json" and not sig.ascend_fd
        # the GE run failure only says a call failed: a wrapper, the cause is another entry's line before it
        assert sig.kind == ("wrapper" if sid == "MS_GE_RUN_GRAPH_FAILED" else "root"), sid
    # the two class entries give way to an entry that knows the line
    assert kb.signature("MS_PARALLEL_STRATEGY_INVALID").fallback and kb.signature("MS_DATASET_USER_PYFUNC_FAILED").fallback
    assert kb.signature("MS_JIT_SYNTAX_NOT_SUPPORTED").fallback


@pytest.mark.parametrize("line, sig_id, said", [
    # the parallel checks of other operators, in MindSpore's log form and the exception's
    ("[ERROR] PARALLEL(9,ffff,python):2025-01-02-03:04:05.000.000 [mindspore/ccsrc/frontend/parallel/ops_info/"
     "arithmetic_info.cc:88] CheckStrategy] AddInfo03: The strategy is ((4, 2), (4, 2)), shape 6 cannot be divisible "
     "by strategy value 4", "MS_PARALLEL_STRATEGY_INVALID", "`Add` does not fit it: The strategy is ((4, 2), (4, 2)), "
     "shape 6 cannot be divisible by strategy value 4"),
    ("[ERROR] PARALLEL(9,ffff,python):2025-01-02-03:04:05.000.000 [mindspore/ccsrc/frontend/parallel/ops_info/"
     "softmax_info.cc:60] CheckStrategy] SoftmaxInfo12: The strategy corresponding to axis dimension is not 1, "
     "input: (1, 8)", "MS_PARALLEL_STRATEGY_INVALID", "`Softmax` does not fit it: The strategy corresponding to axis"),
    ("[ERROR] PARALLEL(9,ffff,python):2025-01-02-03:04:05.000.000 [mindspore/ccsrc/frontend/parallel/ops_info/"
     "flash_attention_score_info.cc:1] CheckStrategy] FlashAttentionScoreInfo00: Invalid strategy: The num_head must "
     "be shard at the same time, but got (1, 2, 1, 1)", "MS_PARALLEL_STRATEGY_INVALID", "`FlashAttentionScore`"),
    # the dataset workers' checks of another operation and of the global setting
    ("RuntimeError: Unexpected error. BatchOp's num_workers=32, this value is not within the required range of "
     "[1, cpu_thread_cnt=24].", "MS_DATASET_NUM_WORKERS_OUT_OF_RANGE", "BatchOp asks for 32 parallel workers"),
    ("RuntimeError: Number of parallel workers given is not within the required range: 64",
     "MS_DATASET_NUM_WORKERS_OUT_OF_RANGE", "MindSpore dataset: an operation asks for more parallel workers"),
    # MindRecord: the append form, another path
    ("mindspore.mindrecord.common.exceptions.MRMOpenError: [MRMOpenError]: MindRecord File could not open successfully "
     "for append.", "MS_MINDRECORD_OPEN_FAILED", "(for append)"),
    ("RuntimeError: Unexpected error. Failed to open file, file path /home/用户/数据/train.mindrecord",
     "MS_MINDRECORD_OPEN_FAILED", "`/home/用户/数据/train.mindrecord`"),
    ("RuntimeError: Unexpected error. Invalid data, Page size: 67108864 is too small to save a blob row. Please try to "
     "use the mindrecord api 'set_page_size(value)'", "MS_MINDRECORD_PAGE_SIZE_TOO_SMALL", "a blob row does not fit in "
     "the page size (67108864 bytes)"),
    ("RuntimeError: Exception thrown from user defined Python function in dataset. Invalid Python function, the "
     "'source' of 'GeneratorDataset' should return same number of NumPy arrays as specified in column_names, the size "
     "of column_names is:3 and number of returned NumPy array is:2", "MS_GENERATOR_COLUMN_COUNT_MISMATCH",
     "(3 columns)"),
    ("RuntimeError: Unexpected error. Inconsistent batch shapes, batch operation expect same shape for each data row, "
     "but got inconsistent shape in column 1, expected shape for this column is:<128>, got shape:<97>",
     "MS_DATASET_BATCH_SHAPES_INCONSISTENT", "in column 1"),
    ("RuntimeError: Exception thrown from PyFunc. TypeError: args should be Numpy narray. Got <class "
     "'PIL.Image.Image'>.", "MS_DATASET_USER_DATA_TYPE_INVALID", "(<class 'PIL.Image.Image'>)"),
    # the user's function failing in another way: the class entry, since no entry knows the exception
    ("RuntimeError: Exception thrown from PyFunc. AttributeError: 'NoneType' object has no attribute 'convert'",
     "MS_DATASET_USER_PYFUNC_FAILED", "a user-defined Python function of the data pipeline raised an exception"),
    ("[ERROR] MD(7,ffff,python):2025-01-02-03:04:05.000.000 [mindspore/ccsrc/plugin/device/ascend/hal/device/"
     "ascend_data_queue.cc:300] ParseType] Got unsupported acl datatype: -1", "MS_DATA_QUEUE_UNSUPPORTED_ACL_DTYPE",
     "(acl datatype -1)"),
    # kernel selection on GPU and vmap on CPU
    ("TypeError: Select GPU operator[MatrixInverse] fail! Unsupported data type!", "MS_KERNEL_SELECT_FAILED",
     "no GPU kernel for `MatrixInverse` that takes these input data types"),
    # the data-type member says so (round 18: 'these inputs' left the line's own reason out); a bool tensor given to
    # Sort on CPU, generated here
    ("Select CPU operator[Sort] fail! Unsupported data type!", "MS_KERNEL_SELECT_FAILED",
     "no CPU kernel for `Sort` that takes these input data types"),
    ("RuntimeError: Unsupported op [Lgamma] on GPU, Please confirm whether the device target setting is correct, or "
     "refer to 'mindspore.ops' at https://www.mindspore.cn to query the operator support list.",
     "MS_KERNEL_SELECT_FAILED", "no GPU kernel for `Lgamma` that takes these inputs"),
    ("RuntimeError: Get response before Open() error.", "MS_OP_BUILD_SERVER_NO_RESPONSE",
     "(Get response before Open() error)"),
    ("RuntimeError: tvm._ffi.base.TVMError: Check failed: need_nbits <= info->max_num_bits (3145728 vs. 1572864) : "
     "res_ub exceed bound of memory: local.UB !", "TBE_OP_UB_OVERFLOW", "(3145728 bits needed, 1572864 available)"),
    ("ValueError: numpy.ufunc size changed, may indicate binary incompatibility. Expected 216 from C header, got 192 "
     "from PyObject", "NUMPY_C_ABI_SIZE_CHANGED", "(`numpy.ufunc size changed`)"),
    ("importlib.metadata.PackageNotFoundError: No package metadata was found for vllm", "PY_PACKAGE_METADATA_NOT_FOUND",
     "(`vllm`)"),
    ("ValueError: /mnt/weights/qwen3-8b is not a valid path to load checkpoint ", "MF_CHECKPOINT_PATH_INVALID",
     "(`/mnt/weights/qwen3-8b`)"),
    # MindFormers' monitor at another step and threshold, with a NaN norm
    ("ValueError: Current global norm [nan] of step 30 has been 5 consecutive times greater than threshold 1.5, stop "
     "training...", "MF_GLOBAL_NORM_SPIKE_STOPPED", "the global norm (nan) at step 30 stayed above the threshold 1.5 "
     "for 5 steps in a row"),
    ("RuntimeError: A leaf tensor that requires grad is being used in an inplace operator, InplaceCopy, which is "
     "forbidden!", "MS_INPLACE_GRAD_UNSUPPORTED", "(`InplaceCopy`)"),
    ("RuntimeError: MapAllocator: shm_open failed with errno: 28", "MS_DATASET_SHARED_MEMORY_INSUFFICIENT",
     "not enough shared memory (/dev/shm)"),
    ("RuntimeError: Expected /dev/shm to exist.", "MS_DATASET_SHARED_MEMORY_INSUFFICIENT", "/dev/shm"),
    ("PermissionError: The '/home/ma-user/Ascend/latest/tools/profiler/profiler_tool/analysis/msprof/msprof.py' path or "
     "'/home/ma-user/Ascend/latest/tools/profiler/bin/msprof' path is not executable.Please execute chmod u+x",
     "MS_PROFILER_MSPROF_UNUSABLE", "is not executable"),
    ("ValueError: CPU backend is not available for this MindSpore package.You can call hal.is_available to check the "
     "reason.", "MS_BACKEND_NOT_AVAILABLE_IN_PACKAGE", "the CPU backend"),
    ("TypeError: The Numpy bfloat16 data type is not supported now, please ensure that the current Numpy version is not "
     "less than the version when the mindspore is compiled", "NUMPY_C_ABI_SIZE_CHANGED", "Numpy bfloat16"),
    # dump settings of other keys, the silent check without a rank, pickling a dataset's lock
    ("RuntimeError: Dump Json Parse Failed. 'file_format' should be either 'npy' or 'bin', but got: txt",
     "MS_DUMP_CONFIG_INVALID", "'file_format' should be either 'npy' or 'bin', but got: txt"),
    ("RuntimeError: Dump path is empty. Please set it in dump json file or environment variable "
     "`MS_DIAGNOSTIC_DATA_PATH`.", "MS_DUMP_CONFIG_INVALID", "the dump configuration is not valid: Dump path is empty"),
    ("RuntimeError: Feature value detection strikes out!", "MS_SILENT_DATA_CORRUPTION_DETECTED",
     "Feature value detection strikes out"),
    ("TypeError: cannot pickle 'mindspore._c_expression.Tensor' object", "PY_OBJECT_NOT_PICKLABLE",
     "('mindspore._c_expression.Tensor' object)"),
    # pipeline and context settings, said by the frontend and by the Python checks
    ("RuntimeError: For seq vpp scheduler, micro_num * seq_chunk_size should be greater than or equal to pp.",
     "MS_PIPELINE_PARALLEL_CONFIG_INVALID", "micro_num * seq_chunk_size should be greater than or equal to pp"),
    ("TypeError: For 'set_auto_parallel_context().set_strategy_ckpt_config', the argument 'load_file' must be str, but "
     "got the type : <class 'NoneType'> .", "MS_CONTEXT_CONFIG_INVALID",
     "(`set_auto_parallel_context().set_strategy_ckpt_config`): 'load_file' must be str"),
    ("ValueError: The context configuration parameter 'global_rank' must be in [0, 4095], but got the value of "
     "global_rank : 4096.", "MS_CONTEXT_CONFIG_INVALID", "(`global_rank`): must be in [0, 4095]"),
    ("RuntimeError: ('Dynamic loss scale Continuous overflow ', 20, ' times, has exceeded maximum threshold.')",
     "MS_LOSS_SCALE_CONTINUOUS_OVERFLOW", "overflowed 20 steps in a row"),
    # the installation faults in other packages' and loaders' words
    ("ImportError: /opt/miniconda3/lib/python3.9/site-packages/_cffi_backend.cpython-39-x86_64-linux-gnu.so: wrong ELF "
     "class: ELFCLASS64", "NATIVE_BINARY_WRONG_ARCHITECTURE", "(built for ELFCLASS64)"),
    ("ImportError: dlopen(/Users/u/env/lib/python3.9/site-packages/PIL/_imaging.cpython-39-darwin.so, 0x0002): Library "
     "not loaded: /opt/homebrew/opt/libtiff/lib/libtiff.6.dylib", "MACOS_DYLIB_NOT_LOADED", "libtiff.6.dylib"),
    ("    The headers or library files could not be found for freetype, a required dependency when compiling Pillow "
     "from source.", "PY_SOURCE_BUILD_SYSTEM_LIBRARY_MISSING", "compile Pillow from source and a system library it "
     "needs is missing (freetype)"),
    ("ValueError: context_parallel is only available for flash attention for now, but got use_flash_attention False, "
     "please set use_flash_attention=True", "MF_PARALLEL_CONFIG_INVALID", "context_parallel is only available for "
     "flash attention"),
    ("ValueError: Transform failed, find /output/transformed_checkpoint/transform_failed_rank_3.txt.",
     "MF_CKPT_TRANSFORM_INPUT_MISSING", "Transform failed (`/output/transformed_checkpoint/"),
    # graph-mode syntax limits in the parser's other wordings
    ("TypeError: The 'generators' supports 1 'comprehension' in DictComp/GeneratorExp, but got 3",
     "MS_JIT_SYNTAX_NOT_SUPPORTED", "(`DictComp`)"),
    ("RuntimeError: The 'while...else...' statement is not supported now.", "MS_JIT_SYNTAX_NOT_SUPPORTED",
     "(`while...else...`)"),
    ("RuntimeError: Not support setattr during JIT Fallback disabled. You can use "
     "os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '2' to enable JIT Fallback.", "MS_JIT_SYNTAX_NOT_SUPPORTED", "(`setattr`)"),
    ("[CRITICAL] KERNEL(7,ffff,python):2022-03-01-10:00:00.000.000 [mindspore/ccsrc/backend/kernel_compiler/tbe/"
     "tbe_kernel_compile.cc:494] QueryProcess] Single op compile failed, op: trans_data_17592186044416_0",
     "MS_TBE_OP_COMPILE_FAILED", "the TBE operator `trans_data`"),
    ("AttributeError: 'DistributedWeightedSampler' object has no attribute 'child_sampler'",
     "MS_DATASET_CUSTOM_SAMPLER_NOT_INITIALIZED", "`DistributedWeightedSampler`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # parallel: strategies printed while compiling, a warning that falls back, the source line
    "[INFO] PARALLEL(9,ffff,python):2025-01-02-03:04:05.000.000 [mindspore/ccsrc/frontend/parallel/step_parallel.cc:1] "
    "ExtractInformation] AddInfo03: The strategy is ((4, 2), (4, 2))",
    "[WARNING] PARALLEL(9,ffff,python):2025-01-02-03:04:05.000.000 [mindspore/ccsrc/frontend/parallel/ops_info/"
    "reshape_info.cc:1] ReshapeInfo01: Invalid strategy, use the default one",
    "MatMulInfo00: The strategy is ((2, 4), (4, 1)), the output tensor map is [1, 0]",
    "[INFO] PARALLEL(1,f,python):2025-01-02 GatherInfo02: strategy ((1, 8), (1, 1)) selected",
    # dataset: settings, progress and the pipeline's wrappers said in passing
    "ds.config.set_num_parallel_workers(8)",
    "[INFO] MD(1,f,python):2025-01-02-03:04:05 [mindspore/ccsrc/minddata/dataset/engine/opt/pre/auto_worker_pass.cc:1] "
    "AutoNumWorker enabled, num_workers in GeneratorDataset is set to 4",
    "writer = FileWriter(file_name='train.mindrecord', shard_num=4, overwrite=True)",
    "[INFO] MD(1,f,python):2025-01-02 [shard_reader.cc:1] Open] Succeed to open MindRecord file /data/a.mindrecord",
    "dataset = dataset.batch(32, drop_remainder=True, pad_info={'input_ids': ([128], 0)})",
    "- Python Call Stack:",
    "[WARNING] MD(1,f,python):2025-01-02 Exception thrown from PyFunc. retrying, attempt 1",
    # operators and Python: build progress, supported types, warnings
    "[INFO] KERNEL(1,f,python):2025-01-02 Select kernel for op: MatMul, supported data type: Float32",
    "[WARNING] KERNEL(1,f,python):2025-01-02 Backoff and rebuild kernel on CPU successfully for node: Unique",
    "[INFO] KERNEL(1,f,python):2025-01-02 [kernel_build_client.cc:1] Response is ready",
    "Successfully installed numpy-1.26.4 gensim-4.3.2",
    "[INFO] load_checkpoint: /home/ckpt/qwen is a valid path, loading safetensors",
    # monitors, profiler, backends and Model said in passing
    "- INFO - Current global norm [3.2] of step 7 has been 1 consecutive times greater than threshold: 3.0",
    "- INFO - The global norm [3.5] of step 8 is still greater or equal than threshold 3.0, continue training.",
    "[INFO] ME(1,f,python):2025-01-02 Successfully added msprof command to PATH.",
    "[WARNING] ME(1,f,python):2025-01-02 Backend GPU is not available.",
    "[WARNING] MD(1,f,python):2025-01-02 The shared memory is on, multiprocessing performance will be improved.",
    "[INFO] ME(1,f,python):2025-01-02 dataset size is 1875",
    "[INFO] ME(1,f,python):2025-01-02 [dump_json_parser.cc:1] Parse] Dump json contents: {\"common_dump_settings\": {}}",
    "[WARNING] ME(1,f,python):2025-01-02 Detect feature value strike, count: 2",
    "[INFO] ME(1,f,python):2025-01-02 CheckSum result is reset to false",
    "[INFO] PARALLEL(1,f,python):2025-01-02 MicroBatch num: 8, StageNum: 4",
    "ms.set_auto_parallel_context(parallel_mode='semi_auto_parallel', device_num=8, pipeline_stages=2)",
    "[WARNING] ME(1,f,python):2025-01-02 Dynamic loss scale overflow, loss scale reduced to 1024",
    "[WARNING] ME(1,f,python):2025-01-02 Found unsupported syntax in graph mode, those codes would be fallen back to "
    "Python interpreter:",
    "[INFO] PARSER(1,f,python):2025-01-02 Convert list inplace append node to PyExecute node: append",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_each_example_is_its_entrys_alone_and_the_known_ascend_form_is_not_taken(kb):
    # every example is explained by its own entry and by no other of the part
    assert family_overlaps(kb, IDS) == []
    for sid in IDS:
        for line in kb.signature(sid).examples:
            assert sid in [s.id for s in kb.explaining(line)], (sid, line)
    # the Ascend kernel selection is OP_UNSUPPORTED_ON_SOC's, not a second entry for the same line
    line = ("RuntimeError: Can not select a valid kernel info for [Default/BatchMatMul-op1] in AI CORE or AI CPU kernel "
            "info candidates list.")
    assert "MS_KERNEL_SELECT_FAILED" not in [s.id for s in kb.explaining(line)]
    # a specific entry that knows the user's exception is named instead of the pipeline's class entry
    line = "RuntimeError: Exception thrown from PyFunc. TypeError: args should be Numpy narray. Got <class 'tuple'>."
    assert [s.id for s in kb.explaining(line)] == ["MS_DATASET_USER_DATA_TYPE_INVALID"]


@pytest.mark.parametrize("line, sig_id, said", [
    # MindFormers' check_for_nan_in_loss_and_grad (mindformers/core/callback/callback.py) is a member of the NaN
    # family, not an entry of its own; the title shows which values it printed
    ("ValueError: device_accum_local_loss is None, loss is [inf], local_norm is None, global_norm is [2.1], "
     "terminate training.", "TRAIN_NAN_DETECTED_STOPPED", "loss is [inf]"),
    # MindSpore's 'Call aclnnX failed, detail:E..9999: Inner Error' says the operator, next to the code's own entry
    ("RuntimeError: Call aclnnGroupedMatmulV4 failed, detail:E39999: Inner Error", "MS_ACLNN_CALL_INNER_ERROR",
     "`aclnnGroupedMatmulV4` failed with a CANN inner error (E39999)"),
])
def test_lines_another_entry_also_reads_are_said_by_this_one(kb, line, sig_id, said):
    hits = {s.id: s for s in kb.explaining(line)}
    assert sig_id in hits, list(hits)
    assert said in hits[sig_id].text("en", line=line)[0]


def test_the_aclnn_inner_error_keeps_to_inner_errors_and_the_nan_check_to_its_line(kb):
    # a detail that is not an inner error is the aclnn entry's to read; the yaml key of the NaN check is no failure
    line = "RuntimeError: call aclnnMatmul failed, detail:EZ1001: The k-axis of the two inputs are different."
    assert "MS_ACLNN_CALL_INNER_ERROR" not in [s.id for s in kb.explaining(line)]
    # round 24: the bare call with E39999 shows no AI CPU operator, so only the aclnn entry reads it
    assert [s.id for s in kb.explaining("RuntimeError: Call aclnnGroupedMatmulV4 failed, detail:E39999: Inner Error")
            if s.id in ("CANN_E39999_AICPU_EXCEPTION", "MS_ACLNN_CALL_INNER_ERROR")] == ["MS_ACLNN_CALL_INNER_ERROR"]
    assert [s.id for s in kb.match_line("  check_for_nan_in_loss_and_grad: True")] == []
