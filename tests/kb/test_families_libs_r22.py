"""data/kb/families_libs_r22.json: the libraries a training or serving job imports beside its framework (round 22):
ONNX Runtime's model loading, feeds, node failures and execution providers, onnx's checker and shape inference,
OmegaConf's and Hydra's config errors, protobuf's duplicate symbols, NumPy 2's copy keyword, OpenCV without a GUI or
without its system libraries, wandb's key check, OpenBLAS inside OpenMP, JAX tracers and XLA's device memory, gRPC's
unavailable server, TensorBoard's port, and names that pandas 2, Pillow 10, SciPy, tiktoken and matplotlib removed
or do not know. Each entry reads members its examples do not show (lines from runs made
here with faults injected, and other versions' wordings), says the member in its title, stays quiet on ordinary lines
and on a clean run's whole output of the same libraries (tests/kb/libs_r22_clean_runs.txt), and one line is one
problem of the family. The entries of other parts this part extended read their new members."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import clean_run_hits, english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_libs_r22")
EXTENDED = ["WANDB_API_KEY_NOT_CONFIGURED_NO_TTY", "NUMPY_REMOVED_ALIAS_USED", "PROTOBUF_DESCRIPTOR_REGISTERED_TWICE",
            "OPENCV_ERROR"]
FAMILY = IDS + EXTENDED + ["ORT_EXECUTION_PROVIDER_NOT_IN_BUILD", "ORT_NO_KERNEL_FOR_NODE", "PROTOBUF_BINARY_MESSAGE_UNPARSABLE",
                           "PROTOBUF_GENERATED_CODE_TOO_OLD", "NUMPY2_REMOVED_NAME_USED", "OPENCV_EMPTY_IMAGE_INPUT",
                           "OPENCV_ARGUMENT_WRONG_TYPE", "OPENCV_CVTCOLOR_CHANNEL_COUNT"]
WARNINGS = {"ORT_EXECUTION_PROVIDER_FELL_BACK", "OPENBLAS_OPENMP_LOOP_WARNING"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots(kb):
    assert len(IDS) == 43 and "ORT_MODEL_GRAPH_INVALID" in IDS and "OMEGACONF_KEY_NOT_IN_CONFIG" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_libs_r22.json" and sig.kind == "root", sid
        assert not sig.fallback, sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # ONNX Runtime: the model file
    ("onnxruntime.capi.onnxruntime_pybind11_state.NoSuchFile: [ONNXRuntimeError] : 3 : NO_SUCHFILE : Load model from "
     "missing.onnx failed:Load model missing.onnx failed. File doesn't exist", "ORT_MODEL_FILE_NOT_FOUND", "`missing.onnx`"),
    ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidProtobuf: [ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load model "
     "from bad.onnx failed:Protobuf parsing failed.", "ORT_MODEL_FILE_NOT_AN_ONNX_MODEL", "`bad.onnx`"),
    ("Microsoft.ML.OnnxRuntime.OnnxRuntimeException : [ErrorCode:Fail] Load model from /srv/app/Resources/m.onnx failed:"
     "/onnxruntime_src/onnxruntime/core/graph/model.cc:165 onnxruntime::Model::Model(onnx::ModelProto&&) ModelProto does "
     "not have a graph.", "ORT_MODEL_FILE_NOT_AN_ONNX_MODEL", "ModelProto does not have a graph"),
    ("onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from ir.onnx failed:"
     "/onnxruntime_src/onnxruntime/core/graph/model.cc:256 onnxruntime::Model::Model(onnx::ModelProto&&, const "
     "onnxruntime::PathString&, const onnxruntime::IOnnxRuntimeOpSchemaRegistryList*, const onnxruntime::logging::Logger&, "
     "const onnxruntime::ModelOptions&) Unsupported model IR version: 99, max supported IR version: 14",
     "ORT_MODEL_NEWER_THAN_RUNTIME", "model IR version 99, while this runtime supports up to 14"),
    ("ONNX Runtime only *guarantees* support for models stamped with official released onnx opset versions. Opset 99 is "
     "under development and support for this is limited. The operator schemas and or other functionality may change before "
     "next ONNX release and in this case ONNX Runtime will not guarantee backward compatibility. Current official support "
     "for domain ai.onnx is till opset 28.", "ORT_MODEL_NEWER_THAN_RUNTIME", "opset 99 of domain ai.onnx"),
    # ONNX Runtime and onnx: the graph
    ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidGraph: [ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from "
     "op.onnx failed:This is an invalid model. In Node, (\"\", FooBar, \"\", -1) : (\"X\": tensor(float),) -> (\"Y\": "
     "tensor(float),) , Error No Op registered for FooBar with domain_version of 13", "ORT_OPERATOR_NOT_REGISTERED",
     "`FooBar` is registered at opset 13"),
    ("onnx.onnx_cpp2py_export.checker.ValidationError: No Op registered for FooBar with domain_version of 13",
     "ORT_OPERATOR_NOT_REGISTERED", "`FooBar`"),
    ("onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from dom.onnx failed:"
     "Fatal error: com.foo:FooBar(-1) is not a registered function/op", "ORT_OPERATOR_NOT_REGISTERED", "domain `com.foo`"),
    ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidGraph: [ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from "
     "type.onnx failed:This is an invalid model. Type Error: Type 'tensor(string)' of input parameter (X) of operator "
     "(Relu) in node () is invalid.", "ORT_MODEL_GRAPH_INVALID", "Type 'tensor(string)'"),
    ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Load model "
     "from inv.onnx failed:Invalid model. Node input 'W' is not a graph input, initializer, or output of a previous node.",
     "ORT_MODEL_GRAPH_INVALID", "`inv.onnx`"),
    ("onnx.onnx_cpp2py_export.checker.ValidationError: Nodes in a graph must be topologically sorted, however input 'W' "
     "of node: ", "ONNX_CHECKER_MODEL_INVALID", "topologically sorted"),
    ("onnx.onnx_cpp2py_export.shape_inference.InferenceError: [ShapeInferenceError] Inference error(s): (op_type:MatMul): "
     "[ShapeInferenceError] Incompatible dimensions for matrix multiplication", "ONNX_SHAPE_INFERENCE_FAILED",
     "at a `MatMul` node: Incompatible dimensions"),
    # ONNX Runtime: the feed and the run
    ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got "
     "invalid dimensions for input: X for the following indices", "ORT_INPUT_SHAPE_MISMATCH", "`X`"),
    ("[E:onnxruntime:, sequential_executor.cc:1] Error code - ORT_INVALID_ARGUMENT - message: Invalid rank for input: X "
     "Got: 3 Expected: 2 Please fix either the inputs/outputs or the model.", "ORT_INPUT_SHAPE_MISMATCH",
     "rank 3 where it expects rank 2"),
    ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Unexpected "
     "input data type. Actual: (tensor(double)) , expected: (tensor(float))", "ORT_INPUT_DTYPE_MISMATCH",
     "`tensor(double)` where the model expects `tensor(float)`"),
    ("builtins.ValueError: Required inputs (['X']) are missing from input feed (['Z']).", "ORT_INPUT_OR_OUTPUT_NAME_UNKNOWN",
     "required inputs ['X'], fed ['Z']"),
    ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Invalid "
     "output name:nope", "ORT_INPUT_OR_OUTPUT_NAME_UNKNOWN", "`nope`"),
    ("2026-12-07 05:05:36.529543795 [E:onnxruntime:, sequential_executor.cc:677 ExecuteKernel] Non-zero status code "
     "returned while running Reshape node. Name:'Reshape_7' Status Message: /onnxruntime_src/onnxruntime/core/providers/"
     "cpu/tensor/reshape_helper.h:91 onnxruntime::ReshapeHelper::ReshapeHelper(const onnxruntime::TensorShape&, "
     "onnxruntime::TensorShapeVector&, bool) input_shape_size == requested_shape_size was false. The input tensor cannot "
     "be reshaped to the requested shape. Input shape:{1,3}, requested shape:{2,2}", "ORT_NODE_EXECUTION_FAILED",
     "`Reshape` node `Reshape_7`: input_shape_size == requested_shape_size was false"),
    ("EP Error Unknown Provider Type: FooExecutionProvider when using ['FooExecutionProvider']",
     "ORT_EXECUTION_PROVIDER_FELL_BACK", "['FooExecutionProvider'] (Unknown Provider Type: FooExecutionProvider)"),
    ("onnxruntime/core/session/provider_bridge_ort.cc:1539 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() "
     "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.9: "
     "cannot open shared object file: No such file or directory", "ORT_PROVIDER_LIBRARY_NOT_LOADABLE",
     "cuda execution provider library: libcudnn.so.9"),
    ("[E:onnxruntime:Default, provider_bridge_ort.cc:1862 onnxruntime::TryGetProviderInfo_CUDA] provider_bridge_ort.cc:1539 "
     "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when trying "
     "to load \"C:\\venv\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"",
     "ORT_PROVIDER_LIBRARY_NOT_LOADABLE", "(Windows error 126)"),
    # OmegaConf and Hydra
    ("omegaconf.errors.ConfigKeyError: Key 'zz' is not in struct", "OMEGACONF_KEY_NOT_IN_CONFIG", "`zz`"),
    ("Key 'lr2' is not in struct", "OMEGACONF_KEY_NOT_IN_CONFIG", "`lr2`"),
    ("omegaconf.errors.ConfigAttributeError: Missing key pretty", "OMEGACONF_KEY_NOT_IN_CONFIG", "`pretty`"),
    ("omegaconf.errors.ConfigAttributeError: Key 'drover' not in 'MySQLConfig'", "OMEGACONF_KEY_NOT_IN_CONFIG",
     "(structured config `MySQLConfig`)"),
    ("Could not override 'lr2'.", "HYDRA_OVERRIDE_KEY_NOT_IN_CONFIG", "`lr2`"),
    ("To append to your config use +lr2=3", "HYDRA_OVERRIDE_KEY_NOT_IN_CONFIG", "`+lr2=3`"),
    ("Could not override 'db'. No match in the defaults list.", "HYDRA_OVERRIDE_KEY_NOT_IN_CONFIG", "`db`"),
    ("Could not append to config. An item is already at 'lr'.", "HYDRA_APPEND_KEY_ALREADY_EXISTS", "`lr`"),
    ("omegaconf.errors.MissingMandatoryValue: Missing mandatory value: m", "OMEGACONF_MANDATORY_VALUE_MISSING", "`m`"),
    ("omegaconf.errors.InterpolationKeyError: Interpolation key 'b.x' not found", "OMEGACONF_INTERPOLATION_UNRESOLVED",
     "`b.x`"),
    ("omegaconf.errors.InterpolationResolutionError: Recursive interpolation detected",
     "OMEGACONF_INTERPOLATION_UNRESOLVED", "Recursive interpolation detected"),
    ("omegaconf.errors.UnsupportedInterpolationType: Unsupported interpolation type foo",
     "OMEGACONF_RESOLVER_NOT_REGISTERED", "`foo`"),
    ("omegaconf.errors.ValidationError: Value 'abc' of type 'str' could not be converted to Float",
     "OMEGACONF_VALUE_TYPE_INVALID", "`abc` (a str) could not be converted to Float"),
    ("omegaconf.errors.ValidationError: Value 'fast' could not be converted to Integer", "OMEGACONF_VALUE_TYPE_INVALID",
     "`fast` could not be converted to Integer"),
    ("Cannot find primary config 'nosuch'. Check that it's in your config search path.", "HYDRA_CONFIG_NOT_FOUND",
     "`nosuch`"),
    ("In 'config': Could not find 'db/postgres'", "HYDRA_CONFIG_NOT_FOUND", "`db/postgres` (asked for in `config`)"),
    ("Error locating target 'nosuch.module.Model', set env var HYDRA_FULL_ERROR=1 to see chained exception.",
     "HYDRA_INSTANTIATE_TARGET_NOT_FOUND", "`nosuch.module.Model`"),
    ("hydra.errors.InstantiationException: Error in call to target 'posixpath.join':",
     "HYDRA_INSTANTIATE_TARGET_CALL_FAILED", "`posixpath.join`"),
    ("hydra.errors.OverrideParseException: no viable alternative at input '[1,2'", "HYDRA_OVERRIDE_NOT_PARSABLE",
     "no viable alternative at input '[1,2'"),
    ("See https://hydra.cc/docs/1.2/advanced/override_grammar/basic for details", "HYDRA_OVERRIDE_NOT_PARSABLE",
     "override does not parse"),
    # protobuf, NumPy, OpenCV, wandb, OpenBLAS, JAX, gRPC, TensorBoard
    ("builtins.TypeError: Couldn't build proto file into descriptor pool: duplicate symbol 'p.M'",
     "PROTOBUF_SYMBOL_DEFINED_TWICE", "`p.M`"),
    ("/usr/lib/python3/site-packages/google/protobuf/descriptor_database.py:164: RuntimeWarning: Conflict register for file "
     "\"b.proto\": p.M is already defined in file \"a.proto\"", "PROTOBUF_SYMBOL_DEFINED_TWICE",
     "`p.M` (already defined in `a.proto`)"),
    ("builtins.ValueError: Unable to avoid copy while creating an array as requested.", "NUMPY2_COPY_FALSE_NOT_POSSIBLE",
     "copy=False"),
    ("cv2.error: OpenCV(5.1.0) /io/opencv/modules/highgui/src/window.cpp:1256: error: (-2:Unspecified error) The function "
     "is not implemented. Rebuild the library with Windows, GTK+ 2.x or Cocoa support. If you are on Ubuntu or Debian, "
     "install libgtk2.0-dev and pkg-config, then re-run cmake or configure script in function 'showImageImpl'",
     "OPENCV_GUI_NOT_IN_BUILD", "(`showImageImpl`)"),
    ("ImportError: libSM.so.6: cannot open shared object file: No such file or directory",
     "OPENCV_SYSTEM_GL_LIBRARY_MISSING", "`libSM.so.6`"),
    ("wandb.errors.errors.AuthenticationError: WANDB_API_KEY invalid: API key must have 40+ characters, has 3.",
     "WANDB_API_KEY_MALFORMED", "3 characters"),
    ("OpenBLAS warning: detect OpenMP Loop and this application may hang. Please rebuild the library with USE_OPENMP=1 "
     "option.", "OPENBLAS_OPENMP_LOOP_WARNING", "OpenMP parallel region"),
    ("jax.errors.TracerIntegerConversionError: The __index__() method was called on traced array with shape int32[]",
     "JAX_TRACER_USED_AS_CONCRETE_VALUE", "(TracerIntegerConversionError)"),
    ("jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 4000000000000 bytes.",
     "XLA_DEVICE_OUT_OF_MEMORY", "4000000000000 bytes"),
    ("RuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 14285187448 bytes.",
     "XLA_DEVICE_OUT_OF_MEMORY", "14285187448 bytes"),
    ("\tdetails = \"failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:9: Failed to connect to remote "
     "host: Connection refused\"", "GRPC_SERVER_UNAVAILABLE", "failed to connect to all addresses"),
    ("ERROR: TensorBoard could not bind to port 6123, it was already in use", "TENSORBOARD_PORT_IN_USE", "port 6123"),
    # pandas, Pillow, SciPy, tiktoken and matplotlib removals and names
    ("builtins.AttributeError: module 'PIL.Image' has no attribute 'LINEAR'", "PIL_REMOVED_RESAMPLING_CONSTANT",
     "`Image.LINEAR`"),
    ("AttributeError: 'Series' object has no attribute 'iteritems'", "PANDAS_REMOVED_METHOD_USED", "`Series.iteritems`"),
    ("builtins.KeyError: \"['zz'] not found in axis\"", "PANDAS_LABELS_NOT_FOUND_IN_AXIS", "['zz']"),
    ("builtins.ValueError: Unknown encoding nope.", "TIKTOKEN_ENCODING_UNKNOWN", "no encoding `nope`"),
    ("builtins.KeyError: 'Could not automatically map nope-model to a tokeniser. Please use `tiktoken.get_encoding` to "
     "explicitly get the tokeniser you expect.'", "TIKTOKEN_ENCODING_UNKNOWN", "the model `nope-model`"),
    ("builtins.OSError: 'seaborn' is not a valid package style, path of style file, URL of style file, or library style "
     "name (library styles are listed in `style.available`)", "MATPLOTLIB_STYLE_NOT_FOUND", "'seaborn'"),
    ("OSError: 'seaborn-darkgrid' not found in the style library and input is not a valid URL or path; see "
     "`style.available` for list of available styles", "MATPLOTLIB_STYLE_NOT_FOUND", "'seaborn-darkgrid'"),
    ("builtins.ValueError: 'nope' is not a valid value for backend; supported values are ['gtk3agg', 'gtk3cairo', "
     "'gtk4agg', 'gtk4cairo', 'macosx', 'nbagg', 'notebook', 'qtagg', 'qtcairo', 'qt5agg', 'qt5cairo', 'tkagg', "
     "'tkcairo', 'webagg', 'wx', 'wxagg', 'wxcairo', 'agg', 'cairo', 'pdf', 'pgf', 'ps', 'svg', 'template']",
     "MATPLOTLIB_BACKEND_NAME_INVALID", "`nope`"),
    ("builtins.ValueError: x and y must have same first dimension, but have shapes (2,) and (3,)",
     "MATPLOTLIB_XY_LENGTH_MISMATCH", "((2,) and (3,))"),
    ("builtins.AttributeError: module 'scipy.misc' has no attribute 'imread'", "SCIPY_MISC_IMAGE_FUNCTION_REMOVED",
     "`scipy.misc.imread`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "sess = ort.InferenceSession('model.onnx', providers=['CUDAExecutionProvider', 'CPUExecutionProvider'])",
    "[(i.name, i.shape, i.type) for i in sess.get_inputs()]", "Applied providers: ['CPUExecutionProvider']",
    "input: images shape: [1, 3, 640, 640] type: tensor(float)", "Exported graph: opset_version=17",
    "onnx.checker.check_model(model, full_check=True)", "Load model from model.onnx", "INVALID_GRAPH = 10",
    "    full_key: model.lr", "    object_type=dict", "Error executing job with overrides: ['lr=0.1']",
    "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.",
    "[2026-12-07 05:20:01,002][__main__][INFO] - lr: 0.1", "_target_: torch.optim.AdamW", "lr: ???",
    "Available options in 'db':", "\tmysql", "Config search path:", "Either remove + prefix: 'lr=3'",
    "np.array(x, copy=False)", "cv2.imshow('frame', img)", "libGL.so.1 => /usr/lib/x86_64-linux-gnu/libGL.so.1",
    "wandb: Currently logged in as: alice. Use `wandb login --relogin` to force relogin",
    "export OPENBLAS_NUM_THREADS=1", "jax.jit(f, static_argnums=(1,))", "XLA_PYTHON_CLIENT_MEM_FRACTION=.75",
    "grpc server listening on 0.0.0.0:50051", "status = StatusCode.OK",
    "TensorBoard 2.20.0 at http://127.0.0.1:6006/ (Press CTRL+C to quit)",
    "img = img.resize((224, 224), Image.Resampling.LANCZOS)", "df = pd.concat([df, row], ignore_index=True)",
    "df.drop(columns=['label_id'], errors='ignore')", "enc = tiktoken.get_encoding('cl100k_base')",
    "plt.style.use('seaborn-v0_8-whitegrid')", "export MPLBACKEND=Agg", "plt.plot(steps, losses)",
    "from scipy.special import comb",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_clean_runs_of_the_same_libraries_give_no_statement(kb):
    """Successful runs here: a Hydra app (run, --cfg job, --help), an ONNX Runtime session with verbose logging and the
    onnx checker and shape inference on a good model, wandb offline, a jitted JAX function, TensorBoard serving, NumPy's
    and OpenCV's build information: no line of them is explained by this part."""
    assert clean_run_hits(kb, "libs_r22_clean_runs.txt", IDS + EXTENDED, at_least=300) == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id, said", [
    ("wandb.errors.errors.UsageError: No API key configured. Use `wandb login` to log in.",
     "WANDB_API_KEY_NOT_CONFIGURED_NO_TTY", "`No API key configured`"),
    ("wandb.errors.UsageError: api_key not configured (no-tty). call wandb.login(key=[your_api_key])",
     "WANDB_API_KEY_NOT_CONFIGURED_NO_TTY", "`api_key not configured (no-tty)`"),
    ("`np.float` was a deprecated alias for the builtin `float`. To avoid this error in existing code, use `float` by "
     "itself.", "NUMPY_REMOVED_ALIAS_USED", "`numpy.float`"),
    ("google.protobuf.descriptor_database.DescriptorDatabaseConflictingDefinitionError: a.proto already added, but with "
     "different descriptor.", "PROTOBUF_DESCRIPTOR_REGISTERED_TWICE", "`a.proto`"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


def test_the_opencv_gui_line_is_not_also_a_generic_opencv_error(kb):
    line = ("cv2.error: OpenCV(4.8.0) /io/opencv/modules/highgui/src/window.cpp:1272: error: (-2:Unspecified error) The "
            "function is not implemented. Rebuild the library with Windows, GTK+ 2.x or Cocoa support. If you are on "
            "Ubuntu or Debian, install libgtk2.0-dev and pkg-config, then re-run cmake or configure script in function "
            "'cvShowImage'")
    assert [s.id for s in kb.explaining(line)] == ["OPENCV_GUI_NOT_IN_BUILD"]
