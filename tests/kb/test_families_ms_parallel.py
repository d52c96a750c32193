"""data/kb/families_ms_parallel.json: MindSpore's parallel, checkpoint and communication layer as a user's call trips
it (round 17). The Layout and shard strategy forms, the option values of set_auto_parallel_context / AutoParallel and
the pipeline wrappers, the distributed checkpoint APIs' missing files and argument checks, checkpoint encryption,
decryption and CRC, save/load keyword checks, mint.distributed's backend. Each entry
reads the lines the fault-injection runs printed and members its examples do not show, says the member in its title,
stays quiet on ordinary lines that share its words and on every clean excerpt of the corpus, and one line is one
problem of the family. The members added to other parts' entries are said by those entries."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_parallel")
# other parts' entries this part extends (their new members are tested below)
EXTENDED = ["MS_API_ARGUMENT_RULE_VIOLATED", "MS_DIST_CKPT_RANK_FILE_MISSING", "MS_INIT_BACKEND_NAME_MISMATCH",
            "MS_PIPELINE_PARALLEL_CONFIG_INVALID"]
FAMILY = IDS + EXTENDED + ["MS_CONTEXT_CONFIG_INVALID", "MS_PARALLEL_STRATEGY_INVALID", "MS_CKPT_READ_FAILED",
                           "MS_MINDIR_DECRYPT_FAILED", "MS_PARALLEL_CONFIG_KEY_UNKNOWN", "MS_SAVE_CHECKPOINT_ARGS_INVALID",
                           "MS_CKPT_FILTER_LEFT_EMPTY", "MS_CKPT_FORMAT_MISMATCH", "MS_API_ARGUMENT_TYPE_WRONG",
                           "MS_MSRUN_WORKER_NUM_REJECTED", "MS_MSRUN_BIND_OPTION_REJECTED"]
GENERIC = ["MS_OP_ARGUMENT_CHECK_FAILED", "LLM_STACK_CONFIG_VALUE_REJECTED", "PY_DICT_KEY_NOT_FOUND",
           "FRAMEWORK_SETTING_NOT_SUPPORTED", "PY_SCRIPT_EXCEPTION", "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT",
           "LAUNCH_OPTION_CHECK_FAILED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"MS_PARALLEL_LAYOUT_INVALID", "MS_SHARD_STRATEGY_FORMAT_INVALID",
                        "MS_PARALLEL_OPTION_VALUE_INVALID", "MS_DIST_CKPT_FILE_NOT_FOUND",
                        "MS_DIST_CKPT_API_ARGUMENT_INVALID", "MS_CKPT_ENCRYPTION_KEY_OR_MODE_INVALID",
                        "MS_CKPT_DECRYPTION_FAILED", "MS_CKPT_CRC_CHECK_FAILED", "MS_CKPT_SAVE_LOAD_ARGUMENT_INVALID",
                        "MS_MINT_DIST_BACKEND_ONLY_HCCL", "MS_PIPELINE_STAGES_DEVICE_NUM_MISMATCH",
                        "MS_PARALLEL_SHARED_PARAM_STRATEGY_CONFLICT", "MS_MSRUN_MASTER_ADDRESS_UNUSABLE"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_parallel.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # Layout
    ("TypeError: device_matrix must be tuple type, but got:<class 'list'>", "MS_PARALLEL_LAYOUT_INVALID",
     "device_matrix must be tuple type"),
    ("ValueError: Each element of alias_name ('dp', 'dp') should be different", "MS_PARALLEL_LAYOUT_INVALID",
     "should be different"),
    ("ValueError: The element of alias_name can not set 'None', because 'None' means no sharding.",
     "MS_PARALLEL_LAYOUT_INVALID", "can not set 'None'"),
    ("ValueError: The axis dp has been set more than one in ('dp', 'mp')", "MS_PARALLEL_LAYOUT_INVALID",
     "The axis dp has been set more than one"),
    ("ValueError: The tensor_map of layout is None", "MS_PARALLEL_LAYOUT_INVALID", "tensor_map of layout is None"),
    # shard strategies
    ("TypeError: out_strategy must be tuple type, but got:<class 'list'>", "MS_SHARD_STRATEGY_FORMAT_INVALID",
     "out_strategy must be tuple type"),
    ("TypeError: The in_strategy: ((2, 1), (<mindspore.parallel.shard.Layout object at 0x7ff65d84b4d0>,)) of MatMul "
     "is not valid, the value of strategy must be int type, but got:<class 'mindspore.parallel.shard.Layout'>",
     "MS_SHARD_STRATEGY_FORMAT_INVALID", "of MatMul is not valid"),
    ("TypeError: For 'Shard', the 'parameter_plan' should be a dict or None, but got list",
     "MS_SHARD_STRATEGY_FORMAT_INVALID", "the 'parameter_plan' should be a dict or None"),
    ("ValueError: For 'fc.weight', the param_shape is (8, 4) and the setting param_strategy is (3, 1). The "
     "param_shape[0]: 8 cannot be divisible by param_strategy[0]: 3.", "MS_SHARD_STRATEGY_FORMAT_INVALID",
     "the param_shape is (8, 4)"),
    # parallel options
    ("TypeError: For 'set_auto_parallel_context', the element of argument 'dataset_strategy' must be tuple, but got "
     "the type : <class 'list'> .", "MS_PARALLEL_OPTION_VALUE_INVALID", "`dataset_strategy`"),
    ("ValueError: The optimizer_level is set as level1, thus cannot set grad_accumulation_shard as True.",
     "MS_PARALLEL_OPTION_VALUE_INVALID", "`optimizer_level`"),
    ("KeyError: \"For 'comm_fusion', the key 'mode' should be contained.\"", "MS_PARALLEL_OPTION_VALUE_INVALID",
     "`comm_fusion`: the key 'mode' should be contained"),
    ("KeyError: 'comm fusion type must be openstate,allreduce, allgather or reducescatter, but got bad'",
     "MS_PARALLEL_OPTION_VALUE_INVALID", "`comm fusion type`"),
    ("ValueError: The indices has duplicate elements", "MS_PARALLEL_OPTION_VALUE_INVALID", "`indices`"),
    ("ValueError: For 'AutoParallel.pipeline', the argument 'stages' must be larger than zero, but got value: 0.",
     "MS_PARALLEL_OPTION_VALUE_INVALID", "`stages`: must be larger than zero"),
    ("ValueError: For 'MicroBatchInterleaved', the argument 'interleave_num' must be large than 0, but got 0.",
     "MS_PARALLEL_OPTION_VALUE_INVALID", "`interleave_num`"),
    ("TypeError: For 'Cell', the property 'pipeline_stage' must be int type, but got type : <class 'str'>",
     "MS_PARALLEL_OPTION_VALUE_INVALID", "`pipeline_stage`"),
    ("ValueError: threshold must be a positive integer or 0, but got -1.", "MS_PARALLEL_OPTION_VALUE_INVALID",
     "`threshold`"),
    ("ValueError: The interface is deprecated. To use gradient accumulation, please use GradAccumulationCell in "
     "mindspore.nn.wrap.cell_wrapper.", "MS_PARALLEL_OPTION_VALUE_INVALID", "`gradient accumulation`"),
    ("RuntimeError: For 'PipelineSplit', the argument 'device_num' must be positive, but got the value of device_num: 0",
     "MS_PARALLEL_OPTION_VALUE_INVALID", "`device_num`: must be positive"),
    # the parallel compiler: stages against devices, a shared parameter
    ("RuntimeError: The sum of the pipeline stage must be equal to the device_num, but got sum of the pipeline stage :4 "
     "and the device_num : 8", "MS_PIPELINE_STAGES_DEVICE_NUM_MISMATCH", "(device_num 8, stages 4)"),
    ("[ERROR] PARALLEL(1,7f,python):2026-12-06-13:50:01.123.456 [mindspore/ccsrc/frontend/parallel/step_parallel.cc:1] "
     "CheckParameterSplit] The parameter embedding.weight has been used by operators with different sharding "
     "strategies. These operators are: Gather-op3, MatMul-op9. Configure these operators with consistent sharding "
     "strategies.", "MS_PARALLEL_SHARED_PARAM_STRATEGY_CONFLICT", "embedding.weight"),
    # msrun's address
    ("RuntimeError: Get local ip has failed. Please verify that the accessible address has been specified in the "
     "'--master_address' parameter", "MS_MSRUN_MASTER_ADDRESS_UNUSABLE", "Get local ip has failed"),
    # distributed checkpoints
    ("ValueError: For 'restore_group_info_list', no such group information file: /nonexist/group_info.pb.",
     "MS_DIST_CKPT_FILE_NOT_FOUND", "no group information file at the path given: /nonexist/group_info.pb"),
    ("NotADirectoryError: src_strategy_dirs /nonexist/dir is not a directory.", "MS_DIST_CKPT_FILE_NOT_FOUND",
     "src_strategy_dirs"),
    ("ValueError: The dst_strategy_file: /nonexist/dir doesn't exist. Or it's not a directory",
     "MS_DIST_CKPT_FILE_NOT_FOUND", "/nonexist/dir"),
    ("ValueError: For ckpt_to_safetensors, the input path must be a valid path or file, but got /nonexist/a.ckpt",
     "MS_DIST_CKPT_FILE_NOT_FOUND", "/nonexist/a.ckpt"),
    ("ValueError: For 'load_distributed_checkpoint', 'unified_safetensors_dir' can not be None when format is "
     "'safetensors'.", "MS_DIST_CKPT_API_ARGUMENT_INVALID", "`load_distributed_checkpoint`"),
    ("TypeError: The checkpoint_files_map should be a dict.", "MS_DIST_CKPT_API_ARGUMENT_INVALID",
     "The checkpoint_files_map should be a dict"),
    ("KeyError: \"Type must be 'SAVE' or 'LOAD'\"", "MS_DIST_CKPT_API_ARGUMENT_INVALID", "'SAVE' or 'LOAD'"),
    ("TypeError: For 'merge_sliced_parameter', the argument 'sliced_parameters' should be list, but got <class "
     "'dict'>.", "MS_DIST_CKPT_API_ARGUMENT_INVALID", "`merge_sliced_parameter`"),
    # encryption, decryption, CRC
    ("ValueError: For 'save_checkpoint', when format is 'safetensors', the parameter 'enc_key' must be set to default "
     "value 'None', but got 'b'0123456789abcdef''.", "MS_CKPT_ENCRYPTION_KEY_OR_MODE_INVALID",
     "when format is 'safetensors'"),
    ("[ERROR] CORE(23014,7f8ed1637b80,python):2026-12-06-13:24:57.096.748 [mindspore/core/utils/crypto.cc:505] "
     "Encrypt] Failed to encrypt data, please check if enc_key or enc_mode is valid or the file has been tempered "
     "with.", "MS_CKPT_ENCRYPTION_KEY_OR_MODE_INVALID", "Failed to encrypt data"),
    ("[ERROR] CORE(23014,7f8ed1637b80,python):2026-12-06-13:24:57.096.743 [mindspore/core/utils/crypto.cc:357] "
     "BlockEncrypt] Failed to get EVP_CIPHER_CTX.", "MS_CKPT_ENCRYPTION_KEY_OR_MODE_INVALID", "Failed to get EVP_CIPHER_CTX"),
    ("[ERROR] CORE(23014,7f8ed1637b80,python):2026-12-06-13:24:57.176.157 [mindspore/core/utils/crypto.cc:736] "
     "Decrypt] Failed to decrypt data, please check if dec_key or dec_mode is valid", "MS_CKPT_DECRYPTION_FAILED",
     "(Failed to decrypt data)"),
    ("[ERROR] CORE(3011,7f3c46bbcb80,python):2026-12-06-13:28:14.287.362 [mindspore/core/utils/crypto.cc:468] "
     "BlockDecrypt] EVP_DecryptFinal_ex failed", "MS_CKPT_DECRYPTION_FAILED", "(EVP_DecryptFinal_ex failed)"),
    ("[ERROR] CORE(1,7f,python):2026-12-06-13:24:57.355.779 [mindspore/core/utils/crypto.cc:712] Decrypt] File "
     "\"/data/ckpt/net.ckpt\" is not an encrypted SM4-CBC file and cannot be decrypted", "MS_CKPT_DECRYPTION_FAILED",
     "/data/ckpt/net.ckpt (is not an encrypted SM4-CBC file)"),
    ("ValueError: For 'load_checkpoint', the crc check has failed. Please check whether the ckpt file is damaged.",
     "MS_CKPT_CRC_CHECK_FAILED", "CRC check"),
    # save / load keywords, mint.distributed
    ("TypeError: For 'save_checkpoint', the argument 'append_dict' must be dict, but got <class 'list'>.",
     "MS_CKPT_SAVE_LOAD_ARGUMENT_INVALID", "`save_checkpoint` was given an argument"),
    ("ValueError: For 'load_checkpoint', the checkpoint file should end with '.ckpt' or '.safetensors', please input "
     "the correct 'format'.", "MS_CKPT_SAVE_LOAD_ARGUMENT_INVALID", "should end with '.ckpt' or '.safetensors'"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, ignore=GENERIC)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # clean runs of the same APIs, log lines that share the entries' words, source and docstring lines
    "{'device_matrix': (2, 4), 'tensor_map': (1, 0), 'interleaved_parallel': False, 'alias_name': ('dp', 'mp'), "
    "'rank_list': [0, 1, 2, 3, 4, 5, 6, 7]}",
    "data_parallel",
    "([], [])",
    "[WARNING] ME(3147:140624284109696,MainProcess):2026-12-06-13:28:20.104.000 [mindspore/context.py:1343] For "
    "'context.set_context', the parameter 'device_target' will be deprecated and removed in a future version. Please "
    "use the api mindspore.set_device() instead.",
    "[WARNING] ME(1:2,MainProcess):2026-12-06-13:00:00.000.000 [mindspore/train/serialization.py:1692] For "
    "'load_checkpoint', the ckpt file do not contain the crc code, please check the file.",
    "[WARNING] ME(1:2,MainProcess):2026-12-06-13:00:00.000.000 [mindspore/train/serialization.py:1249] For "
    "load_checkpoint, this parameter `specity_prefix` will be deprecated, please use `choice_func` instead.",
    "[WARNING] ME(4193:139930147576704,MainProcess):2026-12-06-13:28:48.647.000 "
    "[mindspore/parallel/cluster/process_entity/_api.py:258] msrun launching distributed job with user configured "
    "rank table file path:/tmp/msp_fi/rank_table_2pcs.json",
    "            raise ValueError(\"For 'load_checkpoint', failed to decrypt the checkpoint file.\")",
    "        raise KeyError(\"File path must be an absolute path\")",
    "    enc_key (Union[None, bytes]): Byte type key used for encryption. If the value is None, the encryption is not "
    "required. Default: None.",
    "TypeError: 'str' object is not callable",
    "rank 0 size 2",
    "allreduce [2. 2. 2. 2.]",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: The parameter 'crc_check' must be isinstance of <class 'bool'>, but got yes.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "`crc_check`: must be isinstance of <class 'bool'>"),
    ("ValueError: The safetensor file of rank0 is needed for converting rank[0]'s safetensor, but it is missing.",
     "MS_DIST_CKPT_RANK_FILE_MISSING", "(rank 0, needed for rank 0)"),
    ("RuntimeError: For 'init', the argument 'backend' should be 'mccl' to init 'CPU', but got 'hccl'.",
     "MS_INIT_BACKEND_NAME_MISMATCH", "backend does not match the device target"),
    ("RuntimeError: Sub_micro_num(2) is less than stage_num(4)", "MS_PIPELINE_PARALLEL_CONFIG_INVALID",
     "Sub_micro_num(2) is less than stage_num(4)"),
    # the checkpoint read wrapper names the file and its member's cause (round 18): the cipher form, the other-error
    # form (generated here: a checkpoint saved with AES-GCM, loaded with another key)
    ("ValueError: Failed to read the checkpoint file /work/fi/misses/ckpt/lenet_enc2.ckpt. The file may be encrypted "
     "or tempered with, please pass in the correct 'dec_key' or check the file integrity.", "MS_CKPT_READ_FAILED",
     "`/work/fi/misses/ckpt/lenet_enc2.ckpt` cannot be read: corrupted or truncated, encrypted and loaded without the "
     "right `dec_key`"),
    ("ValueError: Failed to read the checkpoint file /mnt/share/ckpt/rank_3/net-2_500.ckpt. May not have permission to "
     "read it, please check the correct of the file.", "MS_CKPT_READ_FAILED",
     "`/mnt/share/ckpt/rank_3/net-2_500.ckpt` cannot be read: this user may not read it, or reading it failed"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, ignore=GENERIC)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id", [
    # neighbours keep their members: the context's own option names, unknown config keys, the ckpt read wrapper
    ("ValueError: The context configuration parameter 'parallel_mode' only support 'stand_alone', 'data_parallel', "
     "'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', but got the value : semi_auto.",
     "MS_CONTEXT_CONFIG_INVALID"),
    ("ValueError: Unknown config: ['save']", "MS_PARALLEL_CONFIG_KEY_UNKNOWN"),
    ("ValueError: Failed to read the checkpoint file /tmp/msp_fi/enc13.ckpt. The file may be corrupted, and the "
     "content cannot be parsed.", "MS_CKPT_READ_FAILED"),
    ("RuntimeError: Load MindIR failed. The file may be encrypted and decrypt failed, you can check whether the values "
     "of the arguments 'dec_key' and 'dec_mode' are the same as when exported MindIR file, or check the file "
     "integrity.", "MS_MINDIR_DECRYPT_FAILED"),
    ("ValueError: For 'set_auto_parallel_context', the argument 'pipeline_stages' should be greater or equal 1, but "
     "got the value of stages : 0.", "MS_API_ARGUMENT_RULE_VIOLATED"),
])
def test_neighbours_keep_their_members(kb, line, sig_id):
    got = [s.id for s in kb.explaining(line)]
    assert sig_id in got and not set(got) & set(IDS), got
