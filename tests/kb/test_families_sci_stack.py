"""data/kb/families_sci_stack.json: the scientific Python stack's error messages as users' data and training scripts
hit them (round 15), written by fault injection (/work/fi/sci_stack: NumPy 2.4, pandas 3.1, OpenCV 5.1, protobuf,
h5py, scikit-learn, SciPy, soundfile/librosa, matplotlib, sentencepiece, tokenizers). Each entry reads members its
examples do not show, says the member in its title, stays quiet on the ordinary warning and INFO lines of the same
tools (a clean run's output) and on every clean excerpt of the corpus, and one line is one problem of the family. The
entries of other parts this round extended (np.genfromtxt's ragged row, np.loadtxt's and
pandas 3's unparsable numbers) are checked too, and NumPy's ABI banner entry no longer reads code that uses a removed
name."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_sci_stack")
# other parts' entries this part extended or narrowed
EXTENDED = ["NUMPY_REMOVED_ALIAS_USED", "CSV_ROW_FIELD_COUNT_MISMATCH", "TEXT_VALUE_NOT_A_NUMBER", "NUMPY2_INCOMPATIBLE",
            "PY_MODULE_NOT_INSTALLED"]
# neighbours that read other members of the same libraries
FAMILY = IDS + EXTENDED + ["NUMPY_SHAPES_NOT_BROADCASTABLE", "NUMPY_AXIS_OUT_OF_BOUNDS", "NUMPY_RESHAPE_SIZE_MISMATCH",
                           "NUMPY_JOINED_ARRAYS_SHAPES_DIFFER", "NUMPY_INDEX_OUT_OF_BOUNDS", "TABLE_COLUMN_NOT_FOUND",
                           "SKLEARN_INPUT_CONTAINS_NAN", "SKLEARN_LABEL_NOT_SEEN_IN_FIT", "HDF5_FILE_NOT_READABLE",
                           "HDF5_OBJECT_NOT_FOUND", "HDF5_FILE_LOCK_FAILED", "YAML_SYNTAX_ERROR",
                           "PIL_CANNOT_WRITE_MODE_AS_FORMAT", "PIL_CANNOT_IDENTIFY_IMAGE", "PY_DICT_KEY_NOT_FOUND",
                           "TOKENIZER_FILE_NEWER_THAN_LIBRARY", "PROTOBUF_DESCRIPTOR_REGISTERED_TWICE"]
CLASS_ENTRIES = {"OPENCV_ERROR", "LIBROSA_PARAMETER_ERROR"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert len(IDS) == 50 and {"NUMPY2_REMOVED_NAME_USED", "OPENCV_EMPTY_IMAGE_INPUT", "PANDAS_VALUES_LENGTH_MISMATCH",
                                "SKLEARN_ESTIMATOR_NOT_FITTED", "SENTENCEPIECE_MODEL_NOT_PARSABLE",
                                "RUST_LIBRARY_OS_ERROR"} <= set(IDS)
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_sci_stack.json" and sig.kind == "root" and not sig.ascend_fd
        assert bool(sig.fallback) == (sid in CLASS_ENTRIES) and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # NumPy 2.0's removals: the expired-attribute message and the aliases removed without one
    ("AttributeError: `np.Inf` was removed in the NumPy 2.0 release. Use `np.inf` instead.",
     "NUMPY2_REMOVED_NAME_USED", "`np.Inf`"),
    ("AttributeError: module 'numpy' has no attribute 'int0'", "NUMPY2_REMOVED_NAME_USED", "`np.int0`"),
    ("AttributeError: `np.float_` was removed in the NumPy 2.0 release. Use `np.float64` instead.",
     "NUMPY2_REMOVED_NAME_USED", "`np.float_`"),
    # casting and loops
    ("numpy.core._exceptions.UFuncTypeError: Cannot cast ufunc 'subtract' output from dtype('float64') to "
     "dtype('uint8') with casting rule 'same_kind'", "NUMPY_UFUNC_CASTING_REFUSED", "ufunc `subtract`"),
    ("TypeError: Cannot cast array data from dtype('int64') to dtype('int32') according to the rule 'safe'",
     "NUMPY_UFUNC_CASTING_REFUSED", "`int64` to `int32`"),
    ("numpy._core._exceptions._UFuncNoLoopError: ufunc 'multiply' did not contain a loop with signature matching "
     "types (dtype('<U3'), dtype('float64')) -> None", "NUMPY_UFUNC_NO_LOOP_FOR_DTYPES", "`multiply`"),
    ("ValueError: matmul: Input operand 0 has a mismatch in its core dimension 0, with gufunc signature "
     "(n?,k),(k,m?)->(n?,m?) (size 768 is different from 1024)", "NUMPY_MATMUL_INNER_DIM_MISMATCH", "768 vs 1024"),
    ("ValueError: The truth value of an Index is ambiguous. Use a.empty, a.bool(), a.item(), a.any() or a.all().",
     "ARRAY_TRUTH_VALUE_AMBIGUOUS", "whole Index"),
    ("OverflowError: Python integer 256 out of bounds for uint8", "NUMPY_PYTHON_INT_OUT_OF_DTYPE_RANGE", "`256`"),
    ("TypeError: only size-1 arrays can be converted to Python scalars", "NUMPY_ARRAY_WHERE_SCALAR_NEEDED",
     "size-1 arrays"),
    ("IndexError: too many indices for array: array is 0-dimensional, but 1 were indexed", "NUMPY_TOO_MANY_INDICES",
     "0-D array"),
    ("ValueError: attempt to get argmin of an empty sequence", "EMPTY_ARRAY_REDUCED_OR_JOINED", "argmin"),
    ("ValueError: probabilities contain NaN", "NUMPY_RANDOM_CHOICE_ARGUMENTS", "probabilities contain NaN"),
    ("ValueError: size of available data is not a multiple of the data-type size.",
     "NUMPY_BUFFER_NOT_MULTIPLE_OF_ITEMSIZE", "not a whole number"),
    ("numpy.linalg.LinAlgError: Eigenvalues did not converge", "LINALG_MATRIX_NOT_FACTORABLE",
     "Eigenvalues did not converge"),
    # pandas
    ("ValueError: Length mismatch: Expected axis has 5 elements, new values have 4 elements",
     "PANDAS_VALUES_LENGTH_MISMATCH", "(4 values for 5 rows)"),
    ("pandas._libs.tslibs.parsing.DateParseError: day is out of range for month: 2023-02-30",
     "PANDAS_DATE_TEXT_NOT_A_DATE", "day is out of range for month"),
    # OpenCV: the empty image in other functions and the C++ terminate handler's form; the class entry
    ("cv2.error: OpenCV(4.9.0) /io/opencv/modules/imgcodecs/src/loadsave.cpp:798: error: (-215:Assertion failed) "
     "!_img.empty() in function 'imwrite'", "OPENCV_EMPTY_IMAGE_INPUT", "`imwrite`"),
    ("cv2.error: OpenCV(4.5.1) /tmp/pip-req-build-7m_g9lbm/opencv/modules/imgproc/src/imgwarp.cpp:2594: error: "
     "(-215:Assertion failed) src.cols > 0 && src.rows > 0 in function 'warpAffine'", "OPENCV_EMPTY_IMAGE_INPUT",
     "`warpAffine`"),
    ("  what():  OpenCV(4.5.4) /opencv/modules/imgproc/src/color.cpp:182: error: (-215:Assertion failed) "
     "!_src.empty() in function 'cvtColor'", "OPENCV_EMPTY_IMAGE_INPUT", "`cvtColor`"),
    ("cv2.error: OpenCV(4.8.0) /io/opencv/modules/core/src/matmul.dispatch.cpp:363: error: (-215:Assertion failed) "
     "a_size.width == len in function 'gemm'", "OPENCV_ERROR", "`gemm`"),
    ("cv2.error: OpenCV(4.7.0) :-1: error: (-5:Bad argument) in function 'rectangle'", "OPENCV_ARGUMENT_WRONG_TYPE",
     "`rectangle`"),
    # protobuf, h5py
    ("google.protobuf.message.DecodeError: Unexpected end-group tag.", "PROTOBUF_BINARY_MESSAGE_UNPARSABLE",
     "Unexpected end-group tag"),
    # the pure-Python decoder's other members (round 18): an encrypted checkpoint read without its key
    ("google.protobuf.message.DecodeError: Too many bytes when decoding varint.", "PROTOBUF_BINARY_MESSAGE_UNPARSABLE",
     "(Too many bytes when decoding varint): the file or buffer is not a serialized message of that type (another "
     "file, an encrypted file"),
    ("google.protobuf.text_format.ParseError: 3:1 : Message type \"onnx.ModelProto\" has no field named \"foo\".",
     "PROTOBUF_TEXT_FORMAT_UNPARSABLE", "at 3:1"),
    ("OSError: Unable to open file (file is already open for read-only)", "HDF5_FILE_ALREADY_OPEN",
     "file is already open for read-only"),
    ("ValueError: Unable to synchronously create group (name already exists)", "HDF5_NAME_ALREADY_EXISTS", "group"),
    # scikit-learn, SciPy
    ("sklearn.exceptions.NotFittedError: This TfidfVectorizer instance is not fitted yet. Call 'fit' with appropriate "
     "arguments before using this estimator.", "SKLEARN_ESTIMATOR_NOT_FITTED", "`TfidfVectorizer`"),
    ("ValueError: X has 10 features, but StandardScaler is expecting 12 features as input.",
     "SKLEARN_FEATURE_COUNT_MISMATCH", "(10 vs 12)"),
    ("ValueError: Found unknown categories ['Z'] in column 1 during transform", "SKLEARN_UNKNOWN_CATEGORY",
     "in column 1"),
    ("ValueError: A value (-3.5) in x_new is below the interpolation range's minimum value (0.0).",
     "SCIPY_INTERPOLATION_OUT_OF_RANGE", "below"),
    ("ValueError: Mat file appears to be empty", "SCIPY_LOADMAT_NOT_SUPPORTED", "appears to be empty"),
    # audio, plotting, tokenizers
    ("soundfile.LibsndfileError: Error opening 'clip.m4a': File contains data in an unknown format.",
     "LIBSNDFILE_CANNOT_OPEN_AUDIO", "'clip.m4a'"),
    ("RuntimeError: Error opening 'a.wav': System error.", "LIBSNDFILE_CANNOT_OPEN_AUDIO", "System error"),
    ("librosa.util.exceptions.ParameterError: Input is too short (n=0) for frame_length=2048",
     "LIBROSA_PARAMETER_ERROR", "Input is too short"),
    ("ImportError: Cannot load backend 'QtAgg' which requires the 'qt' interactive framework, as 'headless' is "
     "currently running", "MATPLOTLIB_GUI_BACKEND_WITHOUT_DISPLAY", "`QtAgg`"),
    ("OSError: Not found: \"/models/llama/tokenizer.model\": No such file or directory Error #2",
     "SENTENCEPIECE_MODEL_FILE_NOT_FOUND", "/models/llama/tokenizer.model"),
    ("TypeError: PreTokenizedInputSequence must be Union[List[str], Tuple[str]]", "TOKENIZERS_INPUT_NOT_TEXT",
     "PreTokenizedInputSequence"),
    ("Exception: Permission denied (os error 13)", "RUST_LIBRARY_OS_ERROR", "Permission denied"),
    ("TypeError: Cannot handle this data type: (1, 1), <i8", "PIL_FROMARRAY_DTYPE_UNSUPPORTED", "(1, 1), <i8"),
    ("yaml.representer.RepresenterError: ('cannot represent an object', PosixPath('/data'))",
     "YAML_CANNOT_REPRESENT_OBJECT", "PosixPath"),
    # NumPy 2 pickles under an older NumPy, Arrow's 32-bit offsets, pandas' NA mask, protobuf's runtime, Qt
    ("ModuleNotFoundError: No module named 'numpy._core.numeric'", "NUMPY2_PICKLE_LOADED_UNDER_OLD_NUMPY",
     "`numpy._core.numeric`"),
    ("pyarrow.lib.ArrowCapacityError: array cannot contain more than 2147483646 bytes, have 2147484000",
     "ARROW_ARRAY_OVER_2GB_OFFSETS", "have 2147484000"),
    ("[rank0]: ValueError: Cannot mask with non-boolean array containing NA / NaN values", "PANDAS_MASK_HAS_NA",
     "NA/NaN"),
    ("google.protobuf.runtime_version.VersionError: Detected incompatible Protobuf Gencode/Runtime versions when "
     "loading onnx/onnx-ml.proto: gencode 5.29.0 runtime 5.27.2. Runtime version cannot be older than the linked "
     "gencode version.", "PROTOBUF_RUNTIME_OLDER_THAN_GENCODE", "gencode 5.29.0 with runtime 5.27.2"),
    ("qt.qpa.plugin: Could not load the Qt platform plugin \"wayland\" in \"\" even though it was found.",
     "QT_PLATFORM_PLUGIN_NOT_LOADABLE", "`wayland`"),
    ("ValueError: Shape of passed values is (100, 4), indices imply (100, 5)", "PANDAS_VALUES_LENGTH_MISMATCH",
     "another length"),
    # the other parts' entries this part extended
    ("    Line #7 (got 4 columns instead of 5)", "CSV_ROW_FIELD_COUNT_MISMATCH", "4 fields where 5"),
    ("ValueError: could not convert string '1,5' to float64 at row 3, column 2.", "TEXT_VALUE_NOT_A_NUMBER", "'1,5'"),
    ("ValueError: Unable to parse string 'n/a' at position 4", "TEXT_VALUE_NOT_A_NUMBER", "(n/a)"),
    ("RuntimeError: module compiled against ABI version 0x1000009 but this version of numpy is 0x2000000",
     "NUMPY2_INCOMPATIBLE", "built for NumPy 1.x"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # a clean run of the same libraries (/work/fi/sci_stack/clean_cases/c01_warnings.py): warnings and INFO lines
    "/work/fi/sci_stack/clean_cases/c01_warnings.py:9: RuntimeWarning: divide by zero encountered in divide",
    "/usr/lib/python3/site-packages/numpy/_core/fromnumeric.py:3824: RuntimeWarning: Mean of empty slice",
    "[ WARN:0@4.274] global loadsave.cpp:279 findDecoder imread_('data/missing.jpg'): can't open/read file: check file "
    "path/integrity",
    "2026-12-06 07:32:08,712 WARNING prep: image data/missing.jpg could not be read, skipped",
    "/usr/lib/python3/site-packages/sklearn/linear_model/_logistic.py:599: ConvergenceWarning: lbfgs failed to "
    "converge after 1 iteration(s) (status=1):",
    "/usr/lib/python3/site-packages/sklearn/model_selection/_split.py:812: UserWarning: The least populated class in y "
    "has only 2 members, which is less than n_splits=5.",
    "2026-12-06 07:32:08,796 INFO prep: epoch 1/3 loss=0.6931 acc=0.50; no NaN in input X; all probabilities sum to 1",
    "2026-12-06 07:32:08,796 INFO prep: reindex on an axis with unique labels ok; 0 objects to concatenate skipped",
    "/work/fi/sci_stack/cases/54_librosa_nobackend.py:3: UserWarning: PySoundFile failed. Trying audioread instead.",
    "UserWarning: FigureCanvasAgg is non-interactive, and thus cannot be shown",
    "DeprecationWarning: `np.float` is a deprecated alias for the builtin `float`. To silence this warning, use "
    "`float` by itself.",
    "DeprecationWarning: NumPy will stop allowing conversion of out-of-bound Python integers to integer arrays.",
    "UserWarning: X does not have valid feature names, but LinearRegression was fitted with feature names",
    "LinAlgWarning: Ill-conditioned matrix (rcond=1e-17): result may not be accurate.",
    "from audioread.exceptions import NoBackendError",
    "[ INFO:0@0.010] global registry_parallel.impl.hpp:96 ParallelBackendRegistry core(parallel): Enabled backends(3)",
    "Loaded SentencePiece ModelProto from tokenizer.model (32000 pieces)",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line", [
    "AttributeError: `np.float_` was removed in the NumPy 2.0 release. Use `np.float64` instead.",
    "`np.float` was a deprecated alias for the builtin `float`. To avoid this error in existing code, use `float` by "
    "itself.",
])
def test_the_abi_banner_entry_no_longer_reads_code_that_uses_a_removed_name(kb, line):
    assert "NUMPY2_INCOMPATIBLE" not in [s.id for s in kb.match_line(line)]


def test_a_module_not_installed_is_still_named_beside_numpy_core(kb):
    assert [s.id for s in kb.explaining("ModuleNotFoundError: No module named 'numpy'")] == ["PY_MODULE_NOT_INSTALLED"]
    assert "PY_MODULE_NOT_INSTALLED" not in [s.id for s in kb.match_line("ModuleNotFoundError: No module named "
                                                                          "'numpy._core.multiarray'")]
