#!/bin/bash
# Pre-flight through MindSpore's own launcher: every msrun worker runs the checks and writes its report.
#
# Single node, 8 workers:
#   scripts/recipes/msrun_preflight.sh /shared/preflight/job42 --worker_num 8 --local_worker_num 8 --master_port 8118
# Two nodes (run on each; node 0 aggregates once both nodes' 16 reports are in):
#   scripts/recipes/msrun_preflight.sh /shared/preflight/job42 --worker_num 16 --local_worker_num 8 \
#       --master_addr 10.0.0.1 --master_port 8118 --node_rank $NODE_RANK
#
# Options after the report directory go to msrun unchanged (multi-node pass-through). The msrun
# scheduler process runs the same command but writes nothing; workers are named <host>-rank<RANK_ID>.
# Set AGGREGATE=0 on every node but one. Exit code: aggregate's (0 go, 1 problems, 2 could not run).
REPORT_DIR=${1:?usage: msrun_preflight.sh REPORT_DIR [msrun options...]}
shift
# msrun starts `python` or `python3` itself (any other first word is taken as a script path).
PYTHON=${PYTHON:-python}
BUDGET=${PREFLIGHT_BUDGET:-120}
mkdir -p "$REPORT_DIR"

msrun --log_dir "${MSRUN_LOG_DIR:-$REPORT_DIR.msrun-logs}" --join True "$@" \
    "$PYTHON" -m ascend_doctor preflight --report-dir "$REPORT_DIR" --also junit,prom --budget "$BUDGET" \
    --format text
launch_status=$?

[ "${AGGREGATE:-1}" = 1 ] || exit "$launch_status"
# On a multi-node job the other nodes' reports arrive over the shared filesystem: wait for them.
WORKERS=$(printf '%s\n' "$@" | grep -A1 -x -- '--worker_num' | tail -n1)
"$PYTHON" -m ascend_doctor aggregate "$REPORT_DIR" ${WORKERS:+--expect "$WORKERS" --wait "$BUDGET"} \
    --format html -o "$REPORT_DIR.html"
"$PYTHON" -m ascend_doctor aggregate "$REPORT_DIR" ${WORKERS:+--expect "$WORKERS"}
