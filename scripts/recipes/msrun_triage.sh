#!/bin/bash
# Triage through MindSpore's own launcher: one msrun worker per node summarises that node's logs.
#
# On each node (node 0 merges once every node's summary is in; AGGREGATE=0 on the others):
#   TRIAGE_LOGS=$HOME/ascend/log scripts/recipes/msrun_triage.sh /shared/triage/job42 --worker_num 4 \
#       --master_addr 10.0.0.1 --master_port 8118 --node_rank $NODE_RANK
#
# Options after the summary directory go to msrun unchanged; the recipe adds --local_worker_num 1 (one worker
# per node: a node is summarised once). --worker_num is the number of nodes. The msrun scheduler process runs
# the same command and writes nothing. Exit code: triage's (0 nothing found, 1 problems found, 2 could not run).
SUMMARY_DIR=${1:?usage: msrun_triage.sh SUMMARY_DIR [msrun options...]}
shift
PYTHON=${PYTHON:-python}                                   # msrun starts `python` or `python3` itself
read -r -a LOGS <<< "${TRIAGE_LOGS:-$HOME/ascend/log}"
mkdir -p "$SUMMARY_DIR"

msrun --log_dir "${MSRUN_LOG_DIR:-$SUMMARY_DIR.msrun-logs}" --join True --local_worker_num 1 "$@" \
    "$PYTHON" -m ascend_doctor triage --node-summary --summary-dir "$SUMMARY_DIR" "${LOGS[@]}"
launch_status=$?

[ "${AGGREGATE:-1}" = 1 ] || exit "$launch_status"
# the other nodes' summaries arrive over the shared filesystem: wait for as many as --worker_num names
NODES=$(printf '%s\n' "$@" | grep -A1 -x -- '--worker_num' | tail -n1)
for _ in $(seq "${TRIAGE_WAIT:-120}"); do
    [ "$(find "$SUMMARY_DIR" -maxdepth 1 -name '*.json' | wc -l)" -ge "${NODES:-1}" ] && break
    sleep 1
done
"$PYTHON" -m ascend_doctor triage "$SUMMARY_DIR" --format json -o "$SUMMARY_DIR.json"
"$PYTHON" -m ascend_doctor triage "$SUMMARY_DIR"
