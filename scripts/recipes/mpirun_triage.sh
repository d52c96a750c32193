#!/bin/bash
# Triage with Open MPI: one process per node summarises that node's logs, one merge names the root cause.
#
#   TRIAGE_LOGS=/var/log/npu scripts/recipes/mpirun_triage.sh /shared/triage/job42 -np 16 --hostfile hosts \
#       --map-by ppr:1:node
#
# Arguments after the summary directory go to mpirun unchanged. The logs are TRIAGE_LOGS (default: CANN's
# $HOME/ascend/log; several paths separated by spaces). A node's other ranks (OMPI_COMM_WORLD_LOCAL_RANK > 0)
# write nothing. Exit code: triage's (0 nothing found, 1 problems found, 2 could not run).
SUMMARY_DIR=${1:?usage: mpirun_triage.sh SUMMARY_DIR [mpirun options...]}
shift
DOCTOR=${ASCEND_DOCTOR:-ascend-doctor}
read -r -a LOGS <<< "${TRIAGE_LOGS:-$HOME/ascend/log}"
mkdir -p "$SUMMARY_DIR"

mpirun "$@" $DOCTOR triage --node-summary --summary-dir "$SUMMARY_DIR" "${LOGS[@]}"

$DOCTOR triage "$SUMMARY_DIR" --format json -o "$SUMMARY_DIR.json"
$DOCTOR triage "$SUMMARY_DIR"
