"""data/kb/families_mend_r22_gpu.json: round 22's mends for the GPU stack and old/new library pairs: names a newer
release removed while an older package still imports them (Jinja2 3.1, MarkupSafe 2.1, Werkzeug 2.1 and 3.0,
itsdangerous 2.1, huggingface_hub 0.26, scikit-learn 0.23, Pillow 7, Flask 2.3/3.0, WTForms 3.0, urllib3 2.0, SciPy 1.3,
TensorFlow 1.x names on 2.x), old Keras's HDF5 loader calling .decode() on what
h5py 3 reads as str, ptxas that does not know the GPU architecture and Triton's failed ptxas call, and NCCL's topology
XML without an attribute. Each entry reads members its examples do not show, says the member in its title, stays quiet
on ordinary lines and on every clean corpus excerpt; the generic import and attribute entries give way to them."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mend_r22_gpu")
FAMILY = IDS + ["PY_IMPORT_NAME_NOT_IN_MODULE", "FRAMEWORK_NAME_NOT_IMPORTABLE", "PY_MODULE_NOT_INSTALLED",
                "PY_MODULE_ATTRIBUTE_MISSING", "PY2_CODE_ON_PY3", "NVCC_GPU_ARCH_UNSUPPORTED",
                "SETUPTOOLS_PKG_RESOURCES_REMOVED"]
WRAPPERS = {"TRITON_PTXAS_CALL_FAILED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 10 and "JINJA2_31_NAME_REMOVED" in IDS and "NCCL_TOPO_XML_ATTRIBUTE_MISSING" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mend_r22_gpu.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("ImportError: cannot import name 'evalcontextfunction' from 'jinja2' (/opt/conda/lib/python3.9/site-packages/"
     "jinja2/__init__.py)", "JINJA2_31_NAME_REMOVED", "`evalcontextfunction` cannot be imported from `jinja2`: Jinja2 3.1"),
    ("[rank0]: ImportError: cannot import name 'Markup' from 'jinja2' (unknown location)", "JINJA2_31_NAME_REMOVED",
     "`Markup`"),
    ("AttributeError: module 'jinja2' has no attribute 'contextfunction'", "JINJA2_31_NAME_REMOVED",
     "`contextfunction` cannot be imported from `jinja2`"),
    ("AttributeError: module 'markupsafe' has no attribute 'soft_unicode'", "MARKUPSAFE_21_SOFT_UNICODE_REMOVED",
     "MarkupSafe 2.1 removed it"),
    ("ImportError: cannot import name 'pbkdf2_hex' from 'werkzeug.security' (C:\\py\\lib\\site-packages\\werkzeug\\"
     "security.py)", "WERKZEUG_21_NAME_REMOVED", "`pbkdf2_hex` cannot be imported from `werkzeug.security`: Werkzeug 2.1"),
    ("ImportError: cannot import name 'BaseRequest' from 'werkzeug.wrappers' (/srv/venv/lib/python3.8/site-packages/"
     "werkzeug/wrappers/__init__.py)", "WERKZEUG_21_NAME_REMOVED", "`BaseRequest` cannot be imported from `werkzeug.wrappers`"),
    ("ImportError: cannot import name 'url_encode' from 'werkzeug.urls' (/srv/venv/lib/python3.10/site-packages/"
     "werkzeug/urls.py)", "WERKZEUG_30_URLS_NAME_REMOVED", "`url_encode` cannot be imported from `werkzeug.urls`: Werkzeug 3.0"),
    ("ImportError: cannot import name 'json' from 'itsdangerous' (/app/.venv/lib/python3.9/site-packages/itsdangerous/"
     "__init__.py)", "ITSDANGEROUS_21_JSON_REMOVED", "itsdangerous 2.1 removed it"),
    ("ImportError: cannot import name 'filename_to_url' from 'huggingface_hub.file_download' (/usr/local/lib/"
     "python3.10/dist-packages/huggingface_hub/file_download.py)", "HF_HUB_026_CACHED_DOWNLOAD_REMOVED",
     "`filename_to_url` cannot be imported from `huggingface_hub.file_download`: huggingface_hub 0.26"),
    ("ImportError: cannot import name 'six' from 'sklearn.externals' (/usr/lib/python3/dist-packages/sklearn/externals/"
     "__init__.py)", "SKLEARN_023_EXTERNALS_REMOVED", "`six` is no longer in `sklearn.externals`: scikit-learn 0.23"),
    ("ModuleNotFoundError: No module named 'sklearn.externals.joblib'", "SKLEARN_023_EXTERNALS_REMOVED", "`joblib`"),
    ("ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'", "PTXAS_GPU_ARCH_UNKNOWN",
     "ptxas does not know GPU architecture `sm_121a`"),
    ("[rank3]: ptxas fatal   : Value 'sm_110a' is not defined for option 'gpu-name'", "PTXAS_GPU_ARCH_UNKNOWN",
     "`sm_110a`"),
    ("triton.runtime.errors.PTXASError: PTXAS error: `ptxas` failed with error code 1", "TRITON_PTXAS_CALL_FAILED",
     "its ptxas call failed (ptxas failed with error code 1)"),
    ("[rank6]: RuntimeError: Internal Triton PTX codegen error: ", "TRITON_PTXAS_CALL_FAILED",
     "(Internal Triton PTX codegen error)"),
    ("node7:991:1021 [2] NCCL WARN Attribute vendor of node cpu not found", "NCCL_TOPO_XML_ATTRIBUTE_MISSING",
     "no `vendor` attribute on a `cpu` node"),
    ("Attribute dev of node net not found", "NCCL_TOPO_XML_ATTRIBUTE_MISSING", "no `dev` attribute on a `net` node"),
    ("AttributeError: module 'PIL' has no attribute 'PILLOW_VERSION'", "PILLOW_7_PILLOW_VERSION_REMOVED",
     "Pillow 7.0 removed it"),
    ("ImportError: cannot import name 'escape' from 'flask' (/srv/app/.venv/lib/python3.12/site-packages/flask/"
     "__init__.py)", "FLASK_23_30_NAME_REMOVED", "`escape` cannot be imported from `flask`: Flask 2.3 or 3.0 removed it"),
    ("ImportError: cannot import name 'JSONDecoder' from 'flask.json' (/x/flask/json/__init__.py)",
     "FLASK_23_30_NAME_REMOVED", "`JSONDecoder` cannot be imported from `flask.json`"),
    ("ImportError: cannot import name 'TextField' from 'wtforms.fields' (/x/wtforms/fields/__init__.py)",
     "WTFORMS_30_TEXTFIELD_REMOVED", "from `wtforms.fields`: WTForms 3.0 removed"),
    ("AttributeError: module 'urllib3.util.ssl_' has no attribute 'DEFAULT_CIPHERS'", "URLLIB3_20_DEFAULT_CIPHERS_REMOVED",
     "urllib3 2.0 removed it"),
    ("ImportError: cannot import name 'logsumexp' from 'scipy.misc' (/x/scipy/misc/__init__.py)", "SCIPY_13_MISC_NAME_REMOVED",
     "`logsumexp`"),
    ("ImportError: cannot import name 'imresize' from 'scipy.misc' (C:\\Python37\\lib\\site-packages\\scipy\\misc\\"
     "__init__.py)", "SCIPY_13_MISC_NAME_REMOVED", "`imresize` is no longer in `scipy.misc`: SciPy 1.3"),
    ("ptxas /tmp/tmpx9.ptx, line 5; fatal   : Unsupported .version 9.0; current version is '8.8'",
     "PTXAS_PTX_VERSION_UNSUPPORTED", "ptxas reads PTX ISA up to `8.8` but was given PTX `9.0`"),
    ("ImportError: No module named 'torchvision.transforms.functional_tensor'", "TORCHVISION_017_FUNCTIONAL_TENSOR_REMOVED",
     "torchvision 0.17 removed it"),
    ("ImportError: cannot import name 'model_urls' from 'torchvision.models.vgg' (/x/torchvision/models/vgg.py)",
     "TORCHVISION_015_MODEL_URLS_REMOVED", "from `torchvision.models.vgg`: torchvision 0.15 removed"),
    ("AttributeError: module 'tensorflow' has no attribute 'Session'", "TF1_API_ON_TF2",
     "`tf.Session` is a TensorFlow 1.x API"),
    ("[1,0]<stderr>:AttributeError: module 'tensorflow' has no attribute 'set_random_seed'", "TF1_API_ON_TF2",
     "`tf.set_random_seed`"),
    ("    original_keras_version = f.attrs['keras_version'].decode('utf8')", "KERAS_HDF5_STR_ATTR_DECODE_H5PY3",
     "(`keras_version`), but h5py 3 already reads it as str"),
    ("    training_config = json.loads(training_config.decode('utf-8'))", "KERAS_HDF5_STR_ATTR_DECODE_H5PY3",
     "(`training_config`)"),
    ("        original_backend = model_weights_group['backend'].decode('utf8')", "KERAS_HDF5_STR_ATTR_DECODE_H5PY3",
     "(`backend`)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "from jinja2 import Environment, FileSystemLoader", "from markupsafe import Markup, escape",
    "Successfully installed Flask-1.1.4 Jinja2-3.1.2 MarkupSafe-2.1.1 Werkzeug-2.0.3 itsdangerous-2.1.2",
    "ImportError: cannot import name 'Environment' from partially initialized module 'jinja2' (most likely due to a "
    "circular import) (/app/jinja2.py)",
    "from werkzeug.security import check_password_hash", "from huggingface_hub import snapshot_download",
    "ImportError: cannot import name 'url_quote' from 'requests.utils' (/usr/lib/python3/dist-packages/requests/utils.py)",
    "import joblib", "img.resize((64, 64), Image.LANCZOS)", "ptxas info    : Compiling entry function 'triton_poi_fused_0' for 'sm_90a'",
    "ptxas info    : Used 32 registers, used 1 barriers", "Repro command: /usr/local/cuda/bin/ptxas -lineinfo -v --gpu-name=sm_90a /tmp/k.ptx -o /tmp/k.ptx.o",
    "NCCL INFO NCCL_TOPO_FILE set by environment to /opt/amazon/topo.xml", "NCCL INFO Loading topology file /var/run/nvidia-topologyd/virtualTopology.xml",
    "<cpu numaid=\"1\" affinity=\"ffff0000\" arch=\"x86_64\" vendor=\"AuthenticAMD\" familyid=\"25\" modelid=\"1\">",
    "    if 'keras_version' in f.attrs:", "f.attrs['backend'] = K.backend().encode('utf8')",
    "print(line.decode('utf-8'))", "pip install h5py==2.10.0", "from flask import Flask, render_template",
    "from wtforms.validators import DataRequired", "from scipy.misc import derivative", ".version 8.4",
    "urllib3 2.0.7 requires OpenSSL 1.1.1+", "Requirement already satisfied: urllib3<3,>=1.21.1",
    "AttributeError: module 'tensorflow' has no attribute 'keras'", "from torchvision.transforms import functional as F", "tf.compat.v1.disable_v2_behavior()",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_the_lines_other_entries_read_stay_theirs(kb):
    # a name no release pair explains stays the generic import entry's; setuptools 70 stays the platform entry's
    explained_title(kb, "ImportError: cannot import name 'Foo' from 'jinja2' (/x/jinja2/__init__.py)",
                    "PY_IMPORT_NAME_NOT_IN_MODULE", among=FAMILY)
    explained_title(kb, "ImportError: cannot import name 'packaging' from 'pkg_resources' (/x/pkg_resources/__init__.py)",
                    "SETUPTOOLS_PKG_RESOURCES_REMOVED", among=FAMILY)
    explained_title(kb, "ModuleNotFoundError: No module named 'torchvision.transforms.v3'", "PY_MODULE_NOT_INSTALLED",
                    among=FAMILY)
    explained_title(kb, "ModuleNotFoundError: No module named 'sklearn.externals.foo'", "PY_MODULE_NOT_INSTALLED",
                    among=FAMILY)
    explained_title(kb, "AttributeError: 'str' object has no attribute 'decode'", "PY2_CODE_ON_PY3", among=FAMILY)
    explained_title(kb, "nvcc fatal   : Value 'sm_30' is not defined for option 'gpu-architecture'",
                    "NVCC_GPU_ARCH_UNSUPPORTED", among=FAMILY)


def test_the_keras_frame_claims_the_exception_under_it(tmp_path):
    # the AttributeError under Keras's decode line is this entry's alone (exception_under), not PY2_CODE_ON_PY3's
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage.scan import triage_paths

    log = tmp_path / "keras.log"
    log.write_text("Traceback (most recent call last):\n"
                   "  File \"train.py\", line 40, in <module>\n"
                   "    model.load_weights('w.h5')\n"
                   "  File \"/usr/lib/python3.7/site-packages/keras/engine/saving.py\", line 1183, in "
                   "load_weights_from_hdf5_group\n"
                   "    original_keras_version = f.attrs['keras_version'].decode('utf8')\n"
                   "AttributeError: 'str' object has no attribute 'decode'\n", encoding="utf-8")
    got = triage_paths([str(log)], load_knowledge_base()).to_json()
    assert [p["id"] for p in got["problems"]] == ["KERAS_HDF5_STR_ATTR_DECODE_H5PY3"]
