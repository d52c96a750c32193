# Sourced by the scripts: make the venv once (.venv, or $ASCEND_DOCTOR_VENV) with the Python found
# ($ASCEND_DOCTOR_PYTHON, else python3 on PATH) and install the project with its test, network and fast extras,
# plus MindSpore (the smoke extra) at the pin of constraints/python<X.Y>.txt for that Python. Where the file pins
# no MindSpore (PyPI has no wheel for that Python), the doctor is installed without it and its smoke says why.
# Sets $PY. Every failure ends in one line of ours on stderr (exit 2), never in pip's last words.
VENV="${ASCEND_DOCTOR_VENV:-.venv}"
BASE_PY="${ASCEND_DOCTOR_PYTHON:-python3}"

_venv_fail() {
  echo "ascend-doctor set-up: $*" >&2
  exit 2
}

_venv_pyver() {  # "3.11" for a Python that runs, nothing for one that does not
  "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true
}

command -v "$BASE_PY" >/dev/null 2>&1 ||
  _venv_fail "no $BASE_PY on PATH: install Python 3.8-3.13, or name one with ASCEND_DOCTOR_PYTHON=/path/to/python3"
PYVER="$(_venv_pyver "$BASE_PY")"
[ -n "$PYVER" ] || _venv_fail "$BASE_PY ($(command -v "$BASE_PY")) does not run; name a working Python 3.8-3.13 with ASCEND_DOCTOR_PYTHON"
CONSTRAINTS="constraints/python$PYVER.txt"
[ -f "$CONSTRAINTS" ] ||
  _venv_fail "Python $PYVER ($(command -v "$BASE_PY")) is not one the set-up knows (3.8-3.13, constraints/python3.*.txt); put one of those first on PATH or name it with ASCEND_DOCTOR_PYTHON"

# A venv made by another Python (or whose Python is gone) would install, or run, for the wrong one: one the
# scripts made (they leave .ascend-doctor-venv, or the .installed-* stamps of older scripts) is made again;
# any other is the user's, named and left alone.
if [ -e "$VENV" ]; then
  have="$(_venv_pyver "$VENV/bin/python")"
  if [ "$have" != "$PYVER" ]; then
    made_by="${have:+Python $have}"
    made_by="${made_by:-a Python that no longer runs}"
    if [ -f "$VENV/.ascend-doctor-venv" ] || ls "$VENV"/.installed-* >/dev/null 2>&1; then
      echo "ascend-doctor set-up: $VENV was made by $made_by; making it again with Python $PYVER ($(command -v "$BASE_PY"))" >&2
      rm -rf "$VENV"
    else
      _venv_fail "$VENV was made by $made_by, not by Python $PYVER ($(command -v "$BASE_PY")), and not by these scripts: remove it, or use another directory with ASCEND_DOCTOR_VENV=DIR"
    fi
  fi
fi
if [ ! -x "$VENV/bin/python" ]; then
  "$BASE_PY" -m venv "$VENV" >/dev/null 2>&1 ||
    _venv_fail "could not make a venv in $VENV with Python $PYVER ($(command -v "$BASE_PY") -m venv $VENV fails; on Debian/Ubuntu: apt install python$PYVER-venv)"
  touch "$VENV/.ascend-doctor-venv"
fi
PY="$VENV/bin/python"

extras="test,network,fast"
if grep -q '^mindspore==' "$CONSTRAINTS"; then
  extras="$extras,smoke"
fi
stamp="$VENV/.installed-$(cat setup.cfg pyproject.toml "$CONSTRAINTS" | cksum | cut -d' ' -f1)"
if [ ! -f "$stamp" ]; then
  log="$VENV/pip.log"
  : >"$log"
  if ! "$PY" -m pip install -q --upgrade pip >>"$log" 2>&1 ||
     ! "$PY" -m pip install -q -c "$CONSTRAINTS" -e ".[$extras]" >>"$log" 2>&1; then
    tail -n 25 "$log" >&2
    _venv_fail "pip could not install ascend-doctor[$extras] for Python $PYVER with $CONSTRAINTS into $VENV (pip's messages above, all of them in $log)"
  fi
  # triage's matcher: Hyperscan is a dependency only where its current wheels exist (CPython 3.10-3.13); elsewhere
  # (3.8/3.9) a wheel of an older release where pip finds one, never a source build (setup.cfg says why)
  if ! "$PY" -c 'import hyperscan' >/dev/null 2>&1 &&
     ! "$PY" -m pip install -q --only-binary=:all: 'hyperscan>=0.5' >>"$log" 2>&1; then
    echo "ascend-doctor set-up: Python $PYVER: no Hyperscan wheel for this machine; triage matches with RE2, 10-25 times slower on big logs" >&2
  fi
  if [ "${extras%smoke}" = "$extras" ]; then
    echo "ascend-doctor set-up: Python $PYVER: installed without MindSpore ($CONSTRAINTS pins none: PyPI has no wheel of it for this Python); the smoke train says so" >&2
  fi
  touch "$stamp"
fi
export PATH="$(cd "$VENV/bin" && pwd):$PATH"
