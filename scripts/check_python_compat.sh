#!/usr/bin/env bash
# The oldest Python the package must run on is 3.8 (MindSpore's releases ship 3.8-3.12 wheels).
# Only one interpreter is installed here, so vermin reads the code and reports anything newer.
#   scripts/check_python_compat.sh        exit 0 = no violation
set -euo pipefail
cd "$(dirname "$0")/.."
exec vermin --no-config-file --target=3.8- --no-tips --violations --eval-annotations \
  ascend_doctor
