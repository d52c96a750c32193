# Sourced by the scripts: create .venv once and install the project with its
# test and smoke extras (MindSpore pinned by constraints/smoke.txt). Sets $PY.
VENV="${ASCEND_DOCTOR_VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
stamp="$VENV/.installed-$(cat setup.cfg pyproject.toml constraints/smoke.txt | cksum | cut -d' ' -f1)"
if [ ! -f "$stamp" ]; then
  "$PY" -m pip install -q --upgrade pip >&2
  "$PY" -m pip install -q -c constraints/smoke.txt -e ".[test,smoke,network,fast]" >&2
  touch "$stamp"
fi
export PATH="$(cd "$VENV/bin" && pwd):$PATH"
