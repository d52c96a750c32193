#!/usr/bin/env python3
"""Build data/cann_error_codes.json, CANN's own error-code catalogue, and the pattern of CANN_CATALOGUED_ERROR_CODE
(data/kb/families_cann_codes.json) from it (and its scanner anchors: the codes).

    python scripts/build_cann_error_codes.py --runtime /path/to/hicann/runtime/.git \
        --more hicann/ge=/path/to/hicann/ge/.git:base/common/error_registry/error_registry.cc \
        --more hicann/opbase=/path/to/hicann/opbase/.git:src/op_common/log/log.cpp \
        --more hicann/opbase=/path/to/hicann/opbase/.git:src/nnopbase/composite_op/log/op_error_manager.cpp  # rewrite both
    python scripts/build_cann_error_codes.py --check                                 # exit 1 if the pattern is stale

CANN's error printer (the ErrorManager, hicann/runtime src/dfx/error_manager) prints a reported error as
`<code>: [PID: N] <time> <message>`, then `Possible Cause:` / `Solution:` lines: the message is the code's `ErrMessage`
template in `src/dfx/error_manager/error_code.json` with its %s filled, the two lines the code's `suggestion`. That
file is the vendor's catalogue: each code with its class (`errClass`, the module: "RTS Errors"), its title (`errTitle`,
the vendor's kind of fault: `Resource_Error_Insufficient_Host_Memory`), the template and, for most codes the user can
act on, the possible cause and the solution. This script copies it (each code with the URL of the file at the commit it
was read from) and adds:
- `words`: the title as words ("resource error: insufficient host memory"; title_words) and `words_zh` from the small
  glossary TITLE_ZH (the vendor's terms of docs/glossary.md);
- `cause_zh` / `solution_zh`: the 可能原因 / 解决方法 of the code's Chinese page (hicann/runtime
  docs/zh/error_code_ref/**) for the pages listed in data/sources/cann_error_code_pages.txt, the only pages read,
  with a space between a Chinese character and a Latin word as the doctor's Chinese writes it (zh_spaced: the
  vendor's "Host内存", "Shape是否" read "Host 内存", "Shape 是否"; nothing else of its wording changed);
  `cause` / `solution` from the English page of a listed code the file gives no suggestion for.
Other hicann repositories were looked at for a catalogue of their own (`git ls-tree -r HEAD | grep error_code.*json`,
`git grep error_info_list`): hicann/ge keeps GE's (the E1xxxx codes of ATC and the graph engine: E10001 'Value %s for
parameter %s is invalid. Reason: %s') as a C++ raw string in base/common/error_registry/error_registry.cc, registered
with the same ErrorManager (REG_FORMAT_ERROR_MSG); its json file under tests/ is an empty fixture; hicann/opbase keeps
the operator libraries' two (src/op_common/log/log.cpp: the EZ00xx checks of operator parameters; src/nnopbase/
composite_op/log/op_error_manager.cpp: aclnn's EZ10xx), added with two --more; hicann/hcomm keeps HCCL's (EI/EJ codes,
src/common/error_code/error_code.cc; the runtime's file lists most of them) but no snapshot of it could be fetched;
hicann/hccl (its file moved to hcomm), metadef, oam-tools, driver, ops-nn and ops-math have none. `--more REPO=GITDIR:PATH` adds one (a .json file, or a
source file whose first raw string literal `R"(...)"` is the catalogue; codes already read win); a page line
`OWNER/REPO:PATH` of the page list is read from that repository's snapshot (given by --more), GE's pages under
hicann/ge docs/{zh,en}/user_guides/error_codes.

CANN_CATALOGUED_ERROR_CODE's pattern lists the catalogued error codes (not the W... warnings, not the ...9999/...8888
inner errors: those stay with CANN_INNER_ERROR_X9999) in the printer's forms (FORMS); what it says of a code is read
from the table through its `cann_code` group (ascend_doctor/kb/model.py).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from typing import Callable, Dict, List, Optional

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(REPO, "data", "cann_error_codes.json")
PART = os.path.join(REPO, "data", "kb", "families_cann_codes.json")
PAGES = os.path.join(REPO, "data", "sources", "cann_error_code_pages.txt")
RULE_ID = "CANN_CATALOGUED_ERROR_CODE"
RUNTIME = ("hicann/runtime", "src/dfx/error_manager/error_code.json")

# The vendor's kinds of fault (the first words of an errTitle): "Resource_Error_Insufficient_Host_Memory" is said
# "resource error: insufficient host memory".
CATEGORIES = ("Communication_Error", "Compilation_Error", "Config_Error", "Directory_Operation_Error",
              "Environment_Error", "Execution_Error", "File_Operation_Error", "Inner_Error", "Invalid_Argument",
              "Invalid_Input", "Not_Supported", "Package_Error", "Resource_Error", "Invalid_Attr", "Initialization_Error")
# words kept as the vendor spells them
KEEP_CASE = re.compile(r"^(?:AICPU|API|CDQM|CQE|GE|HCCL|HCCP|IP|NN|ONNX|OPP|P2P|ROCE|SDMA|TSDaemon|AclNN|ID|"
                       r"Numa|Python|Ranktable|NPU|AI|OM|Caffe|TensorFlow)$")


def title_words(title: str) -> str:
    """An errTitle in words: the category, a colon, the rest; words in lower case but the vendor's acronyms."""
    def said(part: str) -> str:
        return " ".join(w if KEEP_CASE.match(w) else w.lower() for w in part.split("_") if w)

    for cat in sorted(CATEGORIES, key=len, reverse=True):
        if title.upper().startswith(cat.upper() + "_"):
            return f"{said(cat)}: {said(title[len(cat) + 1:])}"
    return said(title.replace("/", " or "))


# The errTitles in Chinese (the vendor's terms: Host/Device, 算子, 通信域, 内存, as docs/glossary.md lists them).
TITLE_ZH = {
    "AclNN_Inner_Error": "aclnn 内部错误", "AclNN_Parameter_Error": "aclnn 参数错误",
    "AclNN_Runtime_Error": "aclnn 运行错误", "Cgroup_Add_Failure": "加入 cgroup 失败",
    "Communication_Error_Bind_IP_Port": "通信错误：绑定 IP 和端口失败",
    "Communication_Error_Get_Socket": "通信错误：获取 socket 失败", "Communication_Error_P2P": "通信错误：P2P 通信失败",
    "Communication_Error_Timeout": "通信错误：超时", "Compilation_Error": "编译错误",
    "Compilation_Error_Execute_Fusion_Pass": "编译错误：执行融合 Pass 失败",
    "Compilation_Error_Invalid_Emit_Insn": "编译错误：非法的 emit_insn", "Compilation_Error_Invalid_Primitives": "编译错误：非法的原语",
    "Config_Error": "配置错误", "Config_Error_Invalid_Environment_Variable": "配置错误：环境变量取值非法",
    "Config_Error_Ranktable": "配置错误：ranktable", "Config_Error_Ranktable_Configuration": "配置错误：ranktable 配置",
    "Device_Absent/Abnormal": "Device 不在位或异常", "Device_Connection_Failure": "Device 连接失败",
    "Directory_Operation_Error_Create_Failed": "目录操作错误：创建失败", "Dynamic_Shape_Not_Supported": "不支持动态 shape",
    "Environment_Error": "环境错误", "Environment_Error_Call_Python_Function_Failed": "环境错误：调用 Python 函数失败",
    "Environment_Error_Import_Python_Module_Failed": "环境错误：导入 Python 模块失败",
    "Environment_Error_Incorrect_Python_Version": "环境错误：Python 版本不正确", "Execution_Error": "执行错误",
    "Execution_Error_AICPU_Operator_Timeout": "执行错误：AI CPU 算子超时",
    "Execution_Error_Invalid_Context": "执行错误：Context 非法", "Execution_Error_Model": "执行错误：模型执行失败",
    "Execution_Error_ROCE_CQE": "执行错误：RoCE CQE 错误", "Execution_Error_SDMA": "执行错误：SDMA 错误",
    "Execution_Error_Stream_Synchronize_Timeout": "执行错误：Stream 同步超时", "File_Operation_Error": "文件操作错误",
    "File_Operation_Error_Invalid_Path": "文件操作错误：路径非法", "File_Operation_Error_Open": "文件操作错误：打开失败",
    "File_Operation_Error_Parse": "文件操作错误：解析失败", "Full_Service_Queue": "服务队列已满",
    "Graph_Pattern_Matching_Failed": "图模式匹配失败", "HCCP_Process_Initialization_Failure": "HCCP 进程初始化失败",
    "Inconsistent_Collective_Communication_Arguments_Between_Ranks": "各 rank 之间的集合通信参数不一致",
    "Inner_Error": "内部错误", "Inner_Error_AICPU_Scheduler_Init_Failed": "内部错误：AI CPU 调度器初始化失败",
    "Inner_Error_Cgroup_Add_Failed": "内部错误：加入 cgroup 失败", "Inner_Error_Compile_Fail": "内部错误：编译失败",
    "Inner_Error_Device_Status_Abnormal": "内部错误：Device 状态异常",
    "Inner_Error_Device_Subprocess_Startup_Timeout": "内部错误：Device侧子进程启动超时",
    "Inner_Error_Divide_By_Zero": "内部错误：除数为零", "Inner_Error_Driver_API_Call_Failed": "内部错误：调用驱动接口失败",
    "Inner_Error_Failed_Load_Package_To_Device": "内部错误：向 Device 加载软件包失败",
    "Inner_Error_Failed_Send_OPP_To_Device": "内部错误：向 Device 发送算子库（OPP）失败",
    "Inner_Error_File_Operation_Fail": "内部错误：文件操作失败", "Inner_Error_Group_Attach_Failed": "内部错误：挂接 group 失败",
    "Inner_Error_Queue_Scheduler_Init_Failed": "内部错误：队列调度器初始化失败",
    "Inner_Error_TSDaemon_Process_Abnormal": "内部错误：TSDaemon 进程异常", "Inner_Error_Tiling_Fail": "内部错误：tiling 失败",
    "Inner_Error_Unexpected_Value": "内部错误：非预期的取值",
    "Inner_Error_Verify_NN_Process_Binary": "内部错误：校验 NN 进程二进制失败",
    "Insufficient_CDQM_Resources": "CDQM 资源不足", "Insufficient_Event_Resources": "Event 资源不足",
    "Insufficient_Model_Resources": "模型资源不足", "Insufficient_Notify_Resources": "Notify 资源不足",
    "Insufficient_Resources": "资源不足", "Insufficient_Stream_Resources": "Stream 资源不足",
    "Invalid_Argument": "参数非法", "Invalid_Argument_API_Call_Sequence": "参数非法：接口调用顺序错误",
    "Invalid_Argument_Collective_Communication_Operator": "参数非法：集合通信算子",
    "Invalid_Argument_Command": "参数非法：命令", "Invalid_Argument_IP_Address": "参数非法：IP 地址",
    "Invalid_Argument_Input_Attribute_Missing": "参数非法：缺少输入属性",
    "Invalid_Argument_Input_Tensor_Missing": "参数非法：缺少输入 Tensor", "Invalid_Argument_Model": "参数非法：模型",
    "Invalid_Argument_Null_Pointer": "参数非法：空指针", "Invalid_Argument_Shape_Mismatch": "参数非法：shape 不匹配",
    "Invalid_Attr": "属性非法", "Invalid_Attr_Size": "属性非法：大小", "Invalid_Config_Value": "配置值非法",
    "Invalid_Device_Access": "非法访问 Device", "Invalid_Device_ID": "Device ID 非法", "Invalid_GE_graph": "GE 图非法",
    "Invalid_Graph_Parallel_Option_Configuration": "图并行选项配置非法", "Invalid_Input": "输入非法",
    "Invalid_Input_Dtype": "输入非法：数据类型", "Invalid_Input_Format": "输入非法：格式",
    "Invalid_Input_Shape": "输入非法：shape", "Invalid_Input_ShapeSize": "输入非法：shape 大小",
    "Invalid_Memory_Budget_for_Recompute": "重计算的内存预算非法", "Invalid_Numa_Configuration": "NUMA 配置非法",
    "Invalid_Slice_Number_for_a_Node": "节点的切分数非法", "Memory_Allocation_Failure": "内存申请失败",
    "Model_Binding_Errors": "模型绑定错误", "Model_Unbinding_Errors": "模型解绑错误",
    "NN_Process_Bin_Error": "NN 进程二进制错误", "NOT_SUPPORTED": "不支持", "No_Permission": "没有权限",
    "Not_Supported": "不支持", "Not_Supported_API": "不支持：接口", "Not_Supported_Data_Type": "不支持：数据类型",
    "Not_Supported_Format": "不支持：格式", "Not_Supported_Operator": "不支持：算子", "Not_Supported_Shape": "不支持：shape",
    "Not_Supported_Specification": "不支持：规格", "ONNX_Model_Data_Error": "ONNX 模型数据错误",
    "Operation_Unsupported": "不支持的操作", "Package_Error_Incorrect_Driver_Version": "软件包错误：驱动版本不正确",
    "Package_Error_Incorrect_HCCL_Version": "软件包错误：HCCL 版本不正确",
    "Package_Error_Verify_OPP": "软件包错误：校验算子库（OPP）失败", "Package_Error_Verify_Package": "软件包错误：校验软件包失败",
    "Profiling_Enable_Errors": "开启 Profiling 错误", "Ranktable_Check_Failed": "ranktable 校验失败",
    "Ranktable_Detect_Failed": "ranktable 探测失败", "Resource_Busy": "资源忙", "Resource_Error": "资源错误",
    "Resource_Error_Bind_Stream": "资源错误：绑定 Stream 失败",
    "Resource_Error_Insufficient_Device_Memory": "资源错误：Device 内存不足",
    "Resource_Error_Insufficient_Host_Memory": "资源错误：Host 内存不足", "System_Terminated": "系统终止",
    # GE's (hicann/ge base/common/error_registry/error_registry.cc)
    "Compilation_Error_Execute_Custom_Fusion_Pass": "编译错误：执行自定义融合 Pass 失败",
    "Compilation_Error_Load_Custom_Fusion_Pass": "编译错误：加载自定义融合 Pass 失败",
    "Config_Error_Operator_Missing_Implementation": "配置错误：算子缺少实现",
    "Config_Error_Weight_Configuration": "配置错误：权重配置", "Directory_Operation_Error_Name_Too_Long": "目录操作错误：名称过长",
    "File_Operation_Error_File_Not_Exist": "文件操作错误：文件不存在",
    "File_Operation_Error_Invalid_File_Size": "文件操作错误：文件大小非法", "File_Operation_Error_Read": "文件操作错误：读取失败",
    "File_Operation_Error_Write": "文件操作错误：写入失败",
    "Initialization_Error_Register_Custom_Fusion_Pass": "初始化错误：注册自定义融合 Pass 失败",
    "Invalid_Argument_Caffe_Model_Data": "参数非法：Caffe 模型数据", "Invalid_Argument_Caffe_Model_Weight": "参数非法：Caffe 模型权重",
    "Invalid_Argument_Network_Connection": "参数非法：网络连接", "Invalid_Argument_OM_Model_Size": "参数非法：OM 模型大小",
    "Invalid_Argument_ONNX_Model_Data": "参数非法：ONNX 模型数据",
    "Invalid_Argument_Operator_Compilation_Parameter": "参数非法：算子编译参数",
    "Invalid_Argument_Operator_Input_Buffer": "参数非法：算子输入 buffer",
    "Invalid_Argument_Operator_Input_Count": "参数非法：算子输入个数",
    "Invalid_Argument_Operator_Input_Index": "参数非法：算子输入索引", "Invalid_Argument_Operator_Name": "参数非法：算子名称",
    "Invalid_Argument_Operator_Output_Buffer": "参数非法：算子输出 buffer",
    "Invalid_Argument_Operator_Output_Count": "参数非法：算子输出个数",
    "Invalid_Argument_TensorFlow_Model_Data": "参数非法：TensorFlow 模型数据",
    "Invalid_Argument_Tensor_Attribute": "参数非法：Tensor 属性",
    "Invalid_Argument_Tensor_Dynamic_Shape": "参数非法：Tensor 动态 shape",
    "Invalid_Argument_Tensor_Input_Shape": "参数非法：Tensor 输入 shape",
    "Invalid_Argument_Tensor_Input_Shape_Range": "参数非法：Tensor 输入 shape 范围",
    "Performance_Not_Optimal_Operator": "性能非最优：算子",
    # the operator libraries' (hicann/opbase src/op_common/log/log.cpp, src/nnopbase/composite_op/log/op_error_manager.cpp)
    "Invalid_Argument_Graph": "参数非法：图", "Invalid_Argument_Tensor_Dtype": "参数非法：Tensor 数据类型",
    "Invalid_Argument_Tensor_Format": "参数非法：Tensor 格式", "Invalid_Argument_Tensor_Shape": "参数非法：Tensor shape",
    "Invalid_Argument_Tensor_Shape_Dim": "参数非法：Tensor shape 维度",
    "Invalid_Argument_Tensor_Shape_Size": "参数非法：Tensor shape 大小", "Invalid_Argument_Tensor_Stride": "参数非法：Tensor 步长",
    "Unsupported_Attribute_for_a_Node": "节点不支持该属性", "Unsupported_Operator": "不支持的算子",
}

_SECTION = re.compile(r"^##\s+(.+?)\s*$", re.M)
CAUSE_HEADS = {"en": "Possible Cause", "zh": "可能原因"}
SOLUTION_HEADS = {"en": "Solution", "zh": "解决方法"}


def page_sections(text: str, lang: str) -> Dict[str, str]:
    """The possible cause and the solution of an error-code page (its `## 可能原因` / `## 解决方法` sections, or the
    English ones), each as one line (list items joined, markdown escapes dropped)."""
    out: Dict[str, str] = {}
    heads = list(_SECTION.finditer(text))
    for i, m in enumerate(heads):
        body = text[m.end(): heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        body = " ".join(ln.strip() for ln in body.strip().splitlines() if ln.strip() and not ln.startswith("```"))
        body = body.replace("\\_", "_").replace("\\*", "*").strip()
        if not body:
            continue
        if m.group(1) == CAUSE_HEADS[lang]:
            out["cause"] = body
        elif m.group(1) == SOLUTION_HEADS[lang]:
            out["solution"] = body
    return out


def zh_spaced(text: str) -> str:
    """The vendor's Chinese with the house style's space between a Chinese character and a Latin word (docs/glossary.md:
    "CANN 是"; its fused terms such as Host侧 kept; commands, URLs and quoted output untouched): the spacing rule of
    ascend_doctor/zh_style.py alone, so the vendor's punctuation and words stay as the page writes them."""
    sys.path.insert(0, REPO)
    from ascend_doctor import zh_style

    return zh_style._shielded(text, zh_style._spaces) if zh_style.has_han(text) else text


def blob_url(repo: str, commit: str, path: str) -> str:
    return f"https://github.com/{repo}/blob/{commit}/{path}"


def catalogue_text(text: str) -> str:
    """A catalogue file's JSON: the file itself, or (a source file) its first raw string literal `R"(...)"`."""
    if text.lstrip().startswith("{"):
        return text
    m = re.search(r'R"\((.*?)\)"', text, re.S)
    return m.group(1) if m else "{}"


def build(files: List[dict], pages: Dict[str, str], pages_repo: str, pages_commit: str,
          commits: Optional[Dict[str, str]] = None) -> dict:
    """The table from the vendor's catalogue files ([{repo, path, commit, text}], the first naming a code wins) and the
    listed error-code pages ({path: text} of `pages_repo` at `pages_commit`; a key `OWNER/REPO:PATH` is a page of that
    repository, at its commit in `commits`)."""
    codes: Dict[str, dict] = {}
    for f in files:
        url = blob_url(f["repo"], f["commit"], f["path"])
        listed = json.loads(catalogue_text(f["text"])).get("error_info_list", [])
        for e in listed:
            code = e["ErrCode"].strip()
            if code in codes or not re.match(r"^[EW][0-9A-Z][0-9]{4}$", code):
                continue
            got: Dict[str, object] = {}
            if e.get("errClass"):
                got["class"] = e["errClass"].strip()
            if e.get("errTitle"):
                got["title"] = e["errTitle"].strip()
                got["words"] = title_words(got["title"])
                if got["title"] in TITLE_ZH:
                    got["words_zh"] = TITLE_ZH[got["title"]]
            got["message"] = e["ErrMessage"]
            got["args"] = [a.strip() for a in e.get("Arglist", "").split(",") if a.strip()]
            sug = e.get("suggestion") or {}
            for key, name in (("Possible Cause", "cause"), ("Solution", "solution")):
                text = " ".join(str(sug.get(key, "")).split())
                if text and text != "N/A":
                    got[name] = text
            got["file"] = url
            codes[code] = got
    for key, text in sorted(pages.items()):
        repo, _, path = key.rpartition(":") if ":" in key else (pages_repo, "", key)
        commit = pages_commit if repo == pages_repo else (commits or {})[repo]
        m = re.search(r"/([EW][0-9A-Z][0-9]{4})-[^/]*\.md$", path)
        lang = "zh" if "/zh/" in path else "en"
        if not m or m.group(1) not in codes:
            continue
        got, sec = codes[m.group(1)], page_sections(text, lang)
        if lang == "zh" and sec:
            got.update({k + "_zh": zh_spaced(v) for k, v in sec.items()})
            got["page_zh"] = blob_url(repo, commit, path)
        elif lang == "en":
            for k, v in sec.items():
                got.setdefault(k, v)
    return {"schema": "ascend-doctor.cann-error-codes/1", "source": SOURCE, "source_zh": SOURCE_ZH,
            "codes": dict(sorted(codes.items()))}


SOURCE = ("CANN's error-code catalogue, the file its error printer (ErrorManager) reads: hicann/runtime "
          "src/dfx/error_manager/error_code.json (errClass, errTitle, ErrCode, ErrMessage, Possible Cause, Solution; "
          "each code's `file` is the URL of the file at the commit read), installed as "
          "${INSTALL_DIR}/runtime/conf/error_manager/error_code.json, and GE's (the E1xxxx codes of ATC and the graph "
          "engine), hicann/ge base/common/error_registry/error_registry.cc, and the operator libraries' (the EZ00xx checks of "
          "operator parameters and aclnn's EZ10xx), hicann/opbase src/op_common/log/log.cpp and "
          "src/nnopbase/composite_op/log/op_error_manager.cpp; the Chinese cause and solution (`cause_zh`, "
          "`solution_zh`) from the code's page under hicann/runtime docs/zh/error_code_ref or hicann/ge "
          "docs/zh/user_guides/error_codes (`page_zh`); for a code whose template is too general to name it, the fixed "
          "sentences the runtime's own calls print for it (`said`: hicann/runtime src/runtime, a call's string "
          "literals in the template); the errTitle "
          "in words and its Chinese (`words`, `words_zh`) written by ascend-doctor (scripts/build_cann_error_codes.py)")
SOURCE_ZH = ("CANN 的错误码目录，即其报错打印模块（ErrorManager）读取的文件：hicann/runtime "
             "src/dfx/error_manager/error_code.json（errClass、errTitle、ErrCode、ErrMessage、Possible Cause、Solution；"
             "每个错误码的 `file` 为读取时该文件所在提交的 URL），安装后位于 "
             "${INSTALL_DIR}/runtime/conf/error_manager/error_code.json，以及 GE 的错误码目录（ATC 与图引擎的 E1xxxx 错误码）"
             "hicann/ge base/common/error_registry/error_registry.cc，以及算子库的错误码目录（算子参数校验的 EZ00xx 与 aclnn 的 "
             "EZ10xx）hicann/opbase src/op_common/log/log.cpp 和 src/nnopbase/composite_op/log/op_error_manager.cpp；中文的可能原因和解决方法（`cause_zh`、"
             "`solution_zh`）取自 hicann/runtime docs/zh/error_code_ref 或 hicann/ge docs/zh/user_guides/error_codes "
             "下该错误码的页面（`page_zh`）；对于模板过于笼统、无法据以认出错误码的错误码，取 Runtime 自身调用为其打印的固定语句"
             "（`said`：hicann/runtime src/runtime 中调用所传的字符串常量填入模板）；errTitle 的文字说法"
             "及其中文（`words`、`words_zh`）由 ascend-doctor 编写（scripts/build_cann_error_codes.py）")


# ---- the sentences the runtime's own calls state for a code of a generic template ----
# "%s failed. Reason: %s." (EE1016, EE1018, EE1019, EE1023) is anyone's sentence: the template alone does not name its
# code where the line does not give it. The runtime's source does: a call that reports the code with a string literal
# among its values (`RT_LOG_OUTER_MSG_IMPL(ErrorCode::EE1019, "Allocating task info", "The number of pending tasks in
# the stream exceeds the limit")`, `ErrorCode::EE1016, "Stream destruction", RtFmtMsg("Stream (stream_id=%d) during
# the capture stage is not supported", id)`, or the ErrorManager's report of a code with its values
# `"EK0006", std::vector<...>({"func", "param"}), std::vector<...>({"aclprofInit", "profilerResultPath"})`) prints the
# code's specific reason as the vendor states it, a value known only at run time (a variable, a format's conversion)
# left as %s. Such sentences (the code's template filled with the call's values, exactly as many as it has) are kept
# under the code as `said`, each with the source file it was read from (every snapshot read: the runtime's, GE's), and
# only sentences that pass the same rule as a template (lookup.cann_template_read). A code whose template is read itself
# keeps them too: of the templates a sentence fills, its own `said` sentence names the one code (EK0003's "Value nullptr
# for acl json config is invalid. Reason: ..." fills EH0001's template as well).
SOURCE_FILES = ("*.cc", "*.cpp", "*.c", "*.h", ":(exclude)tests", ":(exclude)test")  # a snapshot's own source
_LITERAL = r'"(?:[^"\\\n]|\\.)*"'
_CALLS = (re.compile(r"ErrorCode::(?P<code>E[0-9A-Z]\d{4})\s*,"),
          re.compile(r"\"(?P<code>E[0-9A-Z]\d{4})\"\s*,\s*std::vector<[^>\n]{1,40}>\s*\(\s*\{(?P<names>[^}]*)\}\s*\)\s*,\s*"
                     r"std::vector<[^>\n]{1,40}>\s*\(\s*\{"))
SOURCE_MARK = r"ErrorCode::E\|std::vector<"  # git grep: the files that may hold such calls
# a value given as a format (`RtFmtMsg("Stream (stream_id=%d) during the capture stage is not supported", id)`): its
# fixed text, each conversion a value (%s); `"%" PRIu64` is one conversion
_FORMAT_CALL = re.compile(r"^\w*Fmt\w*\(\s*((?:" + _LITERAL + r"|\s|PRI\w+)+)(?:,|\)$)")
_CONVERSION = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcsp]")


def call_args(text: str, start: int, close: str) -> List[str]:
    """The arguments from `start` to the bracket `close` that ends the call (string literals, nested brackets kept)."""
    args, depth, cur, i = [], 0, [], start
    while i < len(text):
        ch = text[i]
        if ch == '"':
            m = re.compile(_LITERAL).match(text, i)
            if not m:
                return []
            cur.append(m.group(0))
            i = m.end()
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                if ch != close:
                    return []
                args.append("".join(cur).strip())
                return args
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
            i += 1
            continue
        elif ch == ";" and depth == 0:
            return []
        cur.append(ch)
        i += 1
    return []


def _literals(text: str) -> str:
    text = re.sub(r'%"\s*PRI\w+\s*"', '%d', text)  # "size=%" PRIu64 "." -> "size=%d."
    return "".join(lit[1:-1] for lit in re.findall(_LITERAL, text))


def arg_value(arg: str) -> str:
    """What an argument prints: a string literal's text, a format call's fixed text with %s for each conversion, %s for
    anything else (a variable, a call)."""
    if arg and re.fullmatch(r"(?:" + _LITERAL + r"\s*)+", arg):
        return _literals(arg)
    m = _FORMAT_CALL.match(arg)
    if m:
        return _CONVERSION.sub("%s", _literals(m.group(1)))
    return "%s"


def call_sentences(text: str, table: dict) -> List[tuple]:
    """(code, sentence) of each call in a source file that reports a catalogued code with a literal (or formatted)
    value: the code's template filled with what the call gives, a value only known at run time left as %s."""
    out = []
    for m in (m for rx in _CALLS for m in rx.finditer(text)):
        known = table["codes"].get(m.group("code"))
        if not known:
            continue
        values = [arg_value(a) for a in call_args(text, m.end(), "}" if m.groupdict().get("names") else ")")]
        if m.groupdict().get("names") is not None:  # the ErrorManager fills the template by name, not by place
            names = [n[1:-1] for n in re.findall(_LITERAL, m.group("names"))]
            if len(names) != len(values) or sorted(names) != sorted(known.get("args", [])):
                continue
            values = [dict(zip(names, values))[a] for a in known["args"]]
        if (len(values) != known["message"].count("%s") or all(v == "%s" for v in values)
                or any(not v.strip() or "\\" in v or "%" in v.replace("%s", "") for v in values)):
            continue
        sentence = known["message"]
        for v in values:
            sentence = sentence.replace("%s", v.strip().rstrip(".").replace("%s", "\0"), 1)
        out.append((m.group("code"), " ".join(sentence.replace("\0", "%s").split())))
    return out


# a said sentence names one code without the code on the line: one this short ("Label list copy failed. Reason: %s.")
# is too plain to stand for it (data/cann_error_codes.schema.json holds the same bound)
SAID_MIN_LEN = 40


def add_said(table: dict, sources: List[dict]) -> None:
    """Add the `said` sentences of `sources` ([{repo, path, commit, text}]) to the table's codes (see above)."""
    lookup = _lookup()
    said: Dict[str, Dict[str, str]] = defaultdict(dict)
    for f in sources:
        for code, sentence in call_sentences(f["text"], table):
            if len(sentence) < SAID_MIN_LEN or code not in rule_codes(table) or not lookup.cann_template_codes(
                    {"codes": {code: {"message": sentence}}}, [code]):
                continue
            said[code].setdefault(sentence, blob_url(f["repo"], f["commit"], f["path"]))
    for code, got in said.items():
        table["codes"][code]["said"] = [{"text": t, "file": u} for t, u in sorted(got.items())]


# ---- the pattern of CANN_CATALOGUED_ERROR_CODE ----
# after the code: the printer's `[PID: N] <time>` header and the message, up to the log's `[FUNC:` tail
TAIL = (r"(?::? ?(?:\[PID: ?\d+\] ?)?(?:\d{4}-\d\d-\d\d-[0-9:.]{12,16} )? *"
        r"(?P<message>[A-Za-z\[][^\n]{7,}?)(?=\[FUNC:|$))?")
# the forms the vendor's lines put a code in (`{codes}` the alternation): `<message>. ErrorCode=<code>.`, the printer's `<code>: [PID: N] ...` (also as
# the one-line form after `CANN error: ` or inside an exception's message), `<code>[PID: N]` (an inner error's message
# line), the typed form `<Type>(<code>): <message>` (the type's words joined by `_` or
# spaces: `Execution Error ROCE CQE(EI0013):`), `error code <code>` / `errorCode=<code>`, and a code on an
# ERROR-level line or in an exception's message
FORMS = (  # `{codes}` is replaced by the alternation
    # the runtime's form of CANN 9 (hicann/runtime docs/zh/guidelines/error_message_guide/error-code-guide.md, its
    # 打屏效果 column): the message, then ` ErrorCode=<code>.` (the message taken without brackets: after a log prefix)
    r"(?P<message>[A-Za-z][^\n\[\]]{7,}?)\.? ErrorCode=(?P<cann_code>{codes})\b",
    r"\b(?P<cann_code>{codes})(?:: ?|(?=\[PID: ?\d))" + TAIL,
    r"\((?P<cann_code>{codes})\):" + TAIL,
    r"\b[Ee]rror[ _]?[Cc]ode(?: is)?(?: ?[:=] ?| )\[?(?P<cann_code>{codes})\b",
    r"\[ERROR\][^\n]{0,300}?\b(?P<cann_code>{codes})\b(?!\))" + TAIL,
    r"\b[A-Za-z]*(?:Error|Exception): [^\n]{0,300}?\b(?P<cann_code>{codes})\b(?!\))" + TAIL,
)


def rule_codes(table: dict) -> List[str]:
    """The catalogued codes the entry reads: errors (E...), not the inner errors (...9999, ...8888)."""
    return sorted(c for c in table["codes"] if c.startswith("E") and c[2:] not in ("9999", "8888"))


def alternation(codes: List[str]) -> str:
    by: Dict[str, List[str]] = defaultdict(list)
    for c in codes:
        by[c[:3]].append(c[3:])
    return "|".join(f"{head}(?:{'|'.join(tails)})" if len(tails) > 1 else head + tails[0]
                    for head, tails in sorted(by.items()))


# A catalogued message read where the line does not give the code: ascend_doctor/kb/lookup.py decides which templates
# (cann_template_codes) and how one reads (cann_template_regex), for this pattern and for the code the title names.
TEMPLATE_CHUNK = 1500  # characters of templates per pattern (Hyperscan's limit, as for ACL_ERROR_MESSAGE)


def template_codes(table: dict) -> List[str]:
    return _lookup().cann_template_codes(table, rule_codes(table))


def template_regex(message: str) -> str:
    return _lookup().cann_template_regex(message)


def _lookup():
    sys.path.insert(0, REPO)
    from ascend_doctor.kb import lookup

    return lookup


def read_sentences(table: dict) -> List[str]:
    """What the entry reads without a code: the read templates and the `said` sentences their own code's template
    does not already read (a code's `said` sentences are kept either way: of the templates a sentence fills, a `said`
    sentence is the most specific, lookup.cann_said_codes)."""
    read = set(template_codes(table))
    return ([table["codes"][c]["message"] for c in sorted(read)]
            + [text for c, text in _lookup().cann_said_sentences(table, rule_codes(table))
               if c not in read or not re.fullmatch(template_regex(table["codes"][c]["message"]) + r"\.?", text)])


def template_patterns(table: dict) -> List[str]:
    said = sorted({template_regex(m) for m in read_sentences(table)}, key=lambda t: (-len(t), t))
    chunks: List[List[str]] = [[]]
    for t in said:
        if chunks[-1] and sum(len(x) for x in chunks[-1]) + len(t) > TEMPLATE_CHUNK:
            chunks.append([])
        chunks[-1].append(t)
    return [r"(?P<cann_said>(?:" + "|".join(c) + r"))\.?(?=\[FUNC:| *$|\s+TraceBack)" for c in chunks]


def anchors(table: dict) -> List[str]:
    """The scanner's prefilter: the codes (every code form has one) and each read template's longest fixed piece."""
    return rule_codes(table) + sorted({_lookup().cann_template_anchor(m) for m in read_sentences(table)})


def patterns(table: dict) -> List[str]:
    codes = alternation(rule_codes(table))
    return [f.replace("{codes}", codes) for f in FORMS] + template_patterns(table)


def git_reader(gitdir: str) -> tuple:
    commit = subprocess.run(["git", "--git-dir", gitdir, "rev-parse", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()

    def read(path: str) -> str:
        return subprocess.run(["git", "--git-dir", gitdir, "show", f"{commit}:{path}"], check=True,
                              capture_output=True).stdout.decode("utf-8")

    return commit, read


def listed_pages() -> List[str]:
    with open(PAGES, encoding="utf-8") as fh:
        return [ln.strip() for ln in fh if ln.strip() and not ln.startswith("#")]


def write_json(path: str, data: dict) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runtime", help="git dir of a hicann/runtime snapshot: rebuild data/cann_error_codes.json")
    ap.add_argument("--more", action="append", default=[], metavar="OWNER/REPO=GITDIR:PATH",
                    help="another repository's error_code.json (codes already read win)")
    ap.add_argument("--check", action="store_true", help="exit 1 if the entry's pattern is not what the table gives")
    args = ap.parse_args(argv)
    if args.runtime:
        commit, read = git_reader(args.runtime)
        files = [{"repo": RUNTIME[0], "path": RUNTIME[1], "commit": commit, "text": read(RUNTIME[1])}]
        readers = {RUNTIME[0]: (commit, read)}
        gitdirs = {RUNTIME[0]: args.runtime}
        for spec in args.more:
            repo, _, rest = spec.partition("=")
            gitdir, _, path = rest.rpartition(":")
            readers[repo] = more_commit, more_read = git_reader(gitdir)
            gitdirs[repo] = gitdir
            files.append({"repo": repo, "path": path, "commit": more_commit, "text": more_read(path)})
        pages = {}
        for p in listed_pages():
            repo, _, path = p.rpartition(":") if ":" in p else (RUNTIME[0], "", p)
            if repo not in readers:
                sys.exit(f"{PAGES}: page {p}: no snapshot of {repo} given (--more {repo}=GITDIR:PATH)")
            pages[p] = readers[repo][1](path)
        table = build(files, pages, RUNTIME[0], commit, {repo: c for repo, (c, _) in readers.items()})
        sources = []
        for repo, gitdir in gitdirs.items():  # each snapshot's own source (the runtime's, GE's)
            repo_commit, repo_read = readers[repo]
            calls = subprocess.run(["git", "--git-dir", gitdir, "grep", "-l", SOURCE_MARK, repo_commit, "--",
                                    *SOURCE_FILES], check=True, capture_output=True, text=True).stdout.split()
            sources += [{"repo": repo, "path": p.split(":", 1)[1], "commit": repo_commit,
                         "text": repo_read(p.split(":", 1)[1])} for p in calls]
        add_said(table, sources)
        write_json(TABLE, table)
    with open(TABLE, encoding="utf-8") as fh:
        table = json.load(fh)
    with open(PART, encoding="utf-8") as fh:
        part = json.load(fh)
    entry = next(s for s in part["signatures"] if s["id"] == RULE_ID)
    want = patterns(table)
    if args.check:
        ok = [entry["pattern"]] + entry.get("also", []) == want and entry.get("anchors") == anchors(table)
        print(f"{RULE_ID}'s patterns are " + ("what data/cann_error_codes.json gives" if ok else
                                             "stale: run scripts/build_cann_error_codes.py"))
        return 0 if ok else 1
    entry["pattern"], *entry["also"] = want
    # the scanner's prefilter: the codes themselves (every form has one; its own literal extraction gives up on an
    # alternation this long, and the entry would be tried on every line)
    entry["anchors"] = anchors(table)
    write_json(PART, part)
    print(f"{RULE_ID}: {len(rule_codes(table))} codes of {len(table['codes'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
