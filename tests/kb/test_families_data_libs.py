"""data/kb/families_data_libs.json: the data-loading libraries a training script calls before the model. torch.utils.data
(default_collate's batches, the samplers' argument types, a worker_init_fn seeding NumPy), scikit-learn (parameter
validation, K-fold, array dimensions, metrics, PCA, nearest neighbours, convergence and version warnings), Pillow
(truncated and undecodable images, save extensions, closed images, zero sizes, the decompression-bomb warning) and
torchvision (ImageFolder's folders, the built-in datasets and their downloads, the transforms' input checks). Each entry
reads members its examples do not show, says the member in its title, stays quiet on ordinary lines that share its
words (the same tools' clean runs included) and on every clean excerpt of the corpus, and one line is one problem."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_data_libs")
# members of other parts' families this part's sources extend
EXTENDED = ["TORCH_DATALOADER_OPTIONS_REJECTED", "SKLEARN_TOO_FEW_SAMPLES_FOR_SPLIT"]
FAMILY = IDS + EXTENDED + ["TORCH_DEFAULT_COLLATE_TYPE_UNSUPPORTED", "TORCH_TENSORS_JOINED_UNEQUAL_SIZE",
                           "TORCH_DATALOADER_BATCH_SIZE_NOT_POSITIVE", "TORCH_SAMPLER_NUM_SAMPLES_NOT_POSITIVE",
                           "DVPP_JPEG_DATA_INCOMPLETE", "PIL_DECOMPRESSION_BOMB_LIMIT", "SKLEARN_EXPECTED_2D_ARRAY",
                           "SKLEARN_METRIC_UNDEFINED_FOR_DATA", "LLM_STACK_CONFIG_VALUE_REJECTED",
                           "DATASETS_SPLIT_SIZE_INVALID", "PIL_CANNOT_WRITE_MODE_AS_FORMAT",
                           "SKLEARN_FEATURE_COUNT_MISMATCH", "DATALOADER_WORKER_DIED"]
WARNINGS = {"SKLEARN_SOLVER_DID_NOT_CONVERGE", "SKLEARN_ESTIMATOR_PICKLED_BY_OTHER_VERSION",
            "PIL_DECOMPRESSION_BOMB_WARNING", "TORCHVISION_IMAGE_EXTENSION_NOT_LOADED"}
OUT = "/work/fi/data_libs/out"


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 40 and len(set(IDS)) == 40
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_data_libs.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in ("SKLEARN_PARAMETER_CONSTRAINT_VIOLATED", "SKLEARN_CV_FITS_FAILED")), sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # torch.utils.data: another list item and argument, a DataLoader worker's traceback tail
    ("TypeError: expected Tensor as element 3 in argument 0, but got int", "TORCH_TENSOR_LIST_ITEM_NOT_A_TENSOR",
     "holds a `int` at element 3"),
    ("[rank0]: RuntimeError: each element in list of batch should be of equal size",
     "TORCH_COLLATE_SEQUENCE_SAMPLES_UNEQUAL_LENGTH", "list / tuple samples of different lengths"),
    ("[rank3]: RuntimeError: Trying to resize storage that is not resizable", "TORCH_STORAGE_NOT_RESIZABLE",
     "samples of different sizes into shared memory"),
    ("  ValueError: Seed must be between 0 and 2**32 - 1", "NUMPY_RANDOM_SEED_OUT_OF_RANGE", "outside 0 .. 2**32 - 1"),
    ("ValueError: weights should be a 1d sequence but given weights have shape (1000, 1)",
     "TORCH_SAMPLER_ARGUMENT_WRONG_TYPE", "`weights` of the wrong type: it must be a 1d sequence, but got `(1000, 1)`"),
    ("ValueError: drop_last should be a boolean value, but got drop_last=False", "TORCH_SAMPLER_ARGUMENT_WRONG_TYPE",
     "`drop_last` of the wrong type: it must be a boolean value, but got `False`"),
    ("TypeError: multiprocessing_context option should be a valid context object or a string specifying the start "
     "method, but got multiprocessing_context=1", "TORCH_DATALOADER_OPTIONS_REJECTED",
     "`multiprocessing_context option should be a valid context object"),
    # scikit-learn: another parameter and estimator, the set_params form, the old forms
    ("sklearn.utils._param_validation.InvalidParameterError: The 'n_estimators' parameter of RandomForestClassifier "
     "must be an int in the range [1, inf). Got 0 instead.", "SKLEARN_PARAMETER_CONSTRAINT_VIOLATED",
     "the `n_estimators` parameter of `RandomForestClassifier` must be an int in the range [1, inf), but got 0"),
    ("ValueError: Invalid parameter 'learning_rate' for estimator LogisticRegression(). Valid parameters are: ['C'].",
     "SKLEARN_PARAMETER_CONSTRAINT_VIOLATED", "`learning_rate` parameter of `LogisticRegression` is not one it has"),
    ("ValueError: k-fold cross-validation requires at least one train/test split by setting n_splits=2 or more, got "
     "n_splits=0.", "SKLEARN_KFOLD_N_SPLITS_BELOW_TWO", "n_splits=0"),
    ("ValueError: n_splits=10 cannot be greater than the number of members in each class.",
     "SKLEARN_TOO_FEW_SAMPLES_FOR_SPLIT", "(n_splits=10)"),
    ("ValueError: The test_size = 2 should be greater or equal to the number of classes = 3",
     "SKLEARN_TOO_FEW_SAMPLES_FOR_SPLIT", "too few samples"),
    ("ValueError: Found array with dim 4, while dim <= 2 is required by StandardScaler.", "SKLEARN_ARRAY_MORE_THAN_2D",
     "a 4-D array where `StandardScaler` needs a 2-D one"),
    ("ValueError: Found array with dim 3. Estimator expected <= 2.", "SKLEARN_ARRAY_MORE_THAN_2D", "`Estimator`"),
    ("ValueError: Target is multilabel-indicator but average='binary'. Please choose another average setting, one of "
     "[None, 'micro', 'macro', 'weighted', 'samples'].", "SKLEARN_BINARY_AVERAGE_ON_MULTICLASS_TARGET",
     "got multilabel-indicator targets"),
    ("ValueError: Number of classes, 10, does not match size of target_names, 9. Try specifying the labels parameter",
     "SKLEARN_TARGET_NAMES_COUNT_MISMATCH", "got 9 target_names for 10 classes"),
    ("ValueError: n_components=128 must be between 1 and min(n_samples, n_features)=64 with svd_solver='arpack'",
     "SKLEARN_N_COMPONENTS_OUT_OF_RANGE", "n_components=128 is more than the data allows: at most 64"),
    ("ValueError: Expected n_neighbors <= n_samples_fit, but n_neighbors = 6, n_samples_fit = 4, n_samples = 4",
     "SKLEARN_N_NEIGHBORS_EXCEEDS_SAMPLES", "asked for 6 neighbours but was fitted on only 4 samples"),
    ("/usr/lib/python3/site-packages/sklearn/linear_model/_logistic.py:469: ConvergenceWarning: lbfgs failed to "
     "converge (status=1):", "SKLEARN_SOLVER_DID_NOT_CONVERGE", "lbfgs stopped at its iteration limit"),
    ("sklearn/linear_model/_sag.py:350: ConvergenceWarning: The max_iter was reached which means the coef_ did not "
     "converge", "SKLEARN_SOLVER_DID_NOT_CONVERGE", "solver stopped at its iteration limit"),
    ("UserWarning: Trying to unpickle estimator DecisionTreeClassifier from version 0.24.2 when using version 1.0.2. "
     "This might lead to breaking code or invalid results. Use at your own risk.",
     "SKLEARN_ESTIMATOR_PICKLED_BY_OTHER_VERSION", "`DecisionTreeClassifier` pickled with scikit-learn 0.24.2 is "
     "loaded with scikit-learn 1.0.2:"),
    # Pillow: another count, another codec status, no extension
    ("OSError: image file is truncated (150 bytes not processed)", "PIL_IMAGE_FILE_TRUNCATED",
     "the file is truncated (150 bytes not processed)"),
    ("OSError: unrecognized data stream contents when reading image file", "PIL_IMAGE_DATA_NOT_DECODABLE",
     "(`unrecognized data stream contents`)"),
    ("ValueError: unknown file extension: ", "PIL_SAVE_EXTENSION_UNKNOWN", "file extension `(none)`"),
    ("DecompressionBombWarning: Image size (120000000 pixels) exceeds limit of 89478485 pixels, could be "
     "decompression bomb DOS attack.", "PIL_DECOMPRESSION_BOMB_WARNING", "120000000 pixels is over MAX_IMAGE_PIXELS "
     "(89478485)"),
    # torchvision: another directory, classes and old form, the transforms' other members
    ("FileNotFoundError: Couldn't find any class folder in ./dataset/val.", "TORCHVISION_IMAGEFOLDER_NO_CLASS_FOLDER",
     "`./dataset/val`"),
    ("FileNotFoundError: Found no valid file for the classes train. Supported extensions are: .jpg, .jpeg, .png, "
     ".ppm, .bmp, .pgm, .tif, .tiff, .webp", "TORCHVISION_IMAGEFOLDER_CLASS_WITHOUT_IMAGES",
     "in the class folder(s) `train`"),
    ("RuntimeError: Found 0 files in subfolders of: data/hymenoptera/train", "TORCHVISION_IMAGEFOLDER_CLASS_WITHOUT_IMAGES",
     "under `data/hymenoptera/train`"),
    ("RuntimeError: The MD5 checksum of the download file ./data/MNIST/raw/train-images-idx3-ubyte.gz does not match "
     "the one on record.", "TORCHVISION_DOWNLOAD_CORRUPTED", "(`./data/MNIST/raw/train-images-idx3-ubyte.gz`)"),
    ("TypeError: Input tensor should be a float tensor. Got torch.int64.", "TORCHVISION_NORMALIZE_INPUT_REJECTED",
     "a `torch.int64` tensor where it needs a float tensor"),
    ("TypeError: pic should be Tensor or ndarray. Got <class 'PIL.PngImagePlugin.PngImageFile'>.",
     "TORCHVISION_TRANSFORM_INPUT_TYPE_WRONG", "`<class 'PIL.PngImagePlugin.PngImageFile'>` where it needs Tensor or ndarray"),
    ("ValueError: Required crop size (512, 512) is larger than input image size (480, 640)",
     "TORCHVISION_CROP_LARGER_THAN_IMAGE", "size (512, 512) is larger than an input image of (480, 640)"),
    ("TypeError: Size should be int or sequence. Got <class 'str'>", "TORCHVISION_SIZE_ARGUMENT_INVALID",
     "(<class 'str'>)"),
    ("TypeError: Input image tensor permitted channel values are [3], but found 1", "TORCHVISION_IMAGE_CHANNELS_NOT_SUPPORTED",
     "with 1 channels; it takes [3]"),
    # round two: a worker's exit status, generators, pinning, feature names, y's shape, pos_label, CV summaries
    ("RuntimeError: DataLoader worker (pid 881) exited unexpectedly with exit code 255. Details are lost due to "
     "multiprocessing.", "TORCH_DATALOADER_WORKER_EXITED_WITH_CODE", "(pid 881) exited with exit code 255"),
    ("RuntimeError: Expected a 'npu' device type for generator but found 'cpu'", "TORCH_GENERATOR_DEVICE_MISMATCH",
     "on `cpu` was used where a `npu` generator is needed"),
    ("[rank1]: RuntimeError: Pin memory thread exited unexpectedly", "TORCH_PIN_MEMORY_THREAD_EXITED",
     "pin-memory thread exited unexpectedly"),
    ("ValueError: The feature names should match those that were passed during fit.", "SKLEARN_FEATURE_NAMES_MISMATCH",
     "column names differ"),
    ("ValueError: y should be a 1d array, got an array of shape (32, 10) instead.", "SKLEARN_TARGET_NOT_1D",
     "got shape (32, 10)"),
    ("ValueError: pos_label=1 is not a valid label. It should be one of ['no', 'yes']",
     "SKLEARN_POS_LABEL_NOT_IN_LABELS", "pos_label=1 is not one of the labels ['no', 'yes']"),
    ("All the 20 fits failed.", "SKLEARN_CV_FITS_FAILED", "All the 20 fits of a cross-validation"),
    ("ValueError: Only 'saga' solver supports elasticnet penalty, got solver=lbfgs.",
     "SKLEARN_SOLVER_PENALTY_NOT_SUPPORTED", "solver `lbfgs` does not support"),
    ("ValueError: Solver liblinear supports only 'l2' or 'none' penalties, got elasticnet penalty.",
     "SKLEARN_SOLVER_PENALTY_NOT_SUPPORTED", "(`elasticnet`)"),
    ("ValueError: pic should not have > 4 channels. Got 512 channels.", "TORCHVISION_TO_PIL_CHANNEL_AXIS_WRONG",
     "with 512 channels"),
    ("NotImplementedError: operator torchvision::roi_align does not exist", "TORCHVISION_TORCH_VERSION_MISMATCH",
     ": operator torchvision::roi_align does not exist"),
    ("RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch "
     "has CUDA Version=11.8 and torchvision has CUDA Version=12.1.", "TORCHVISION_TORCH_VERSION_MISMATCH",
     "different CUDA major versions"),
    ("UserWarning: Failed to load image Python extension: '/opt/venv/lib/python3.10/site-packages/torchvision/image.so: "
     "undefined symbol: _ZN3c1017RegisterOperatorsD1Ev'If you don't plan on using image functionality from "
     "`torchvision.io`, you can ignore this warning.", "TORCHVISION_IMAGE_EXTENSION_NOT_LOADED",
     "could not be loaded: `/opt/venv/lib/python3.10/site-packages/torchvision/image.so"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # ordinary lines of the same tools (the clean runs here included)
    "/work/fi/venv_torch/lib/python3.11/site-packages/torch/utils/data/dataloader.py:431: UserWarning: This DataLoader "
    "will create 4 worker processes in total. Our suggested max number of worker in current system is 2, which is "
    "smaller than what this DataLoader is going to create.",
    "UserWarning: 'pin_memory' argument is set as true but no accelerator is found, then device pinned memory won't be "
    "used.",
    "epoch 0: 7 batches, last batch (4, 3, 8, 8)",
    "    out = elem.new(storage).resize_(len(batch), *list(elem.size()))",
    "    np.random.seed(seed % 2**32)",
    "UserWarning: The least populated class in y has only 3 members, which is less than n_splits=5.",
    "Increase the number of iterations to improve the convergence (max_iter=2).",
    "cv [0.208 0.375 0.208 0.167 0.25 ]",
    "              precision    recall  f1-score   support",
    "LOAD_TRUNCATED_IMAGES = False MAX_IMAGE_PIXELS = 89478485",
    "/tmp/dl_img/ok.jpg (32, 24) RGB",
    "Files already downloaded and verified",
    "Using downloaded and verified file: ./data/cifar-10-python.tar.gz",
    "Extracting ./data/MNIST/raw/train-images-idx3-ubyte.gz to ./data/MNIST/raw",
    "Found 2 classes in /data/train: cat, dog",
    "    transforms.Normalize(mean=[0.5], std=[0.5]),",
    "[INFO] image file is truncated check passed",
    "UserWarning: X does not have valid feature names, but LogisticRegression was fitted with feature names",
    "10 fits failed out of a total of 50.",
    "Fitting 5 folds for each of 4 candidates, totalling 20 fits",
    "LogisticRegression(penalty='l1', solver='liblinear')",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


@pytest.mark.parametrize("name", ["c1_torch_clean", "c2_sklearn_clean", "c3_pil_clean"])
def test_the_clean_runs_here_say_nothing(kb, name):
    path = os.path.join(OUT, name + ".txt")
    if not os.path.exists(path):
        pytest.skip("the fault-injection outputs are not on this machine")
    with open(path, encoding="utf-8") as fh:
        hits = [(s.id, line) for line in fh for s in kb.explaining(line)]
    assert hits == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
