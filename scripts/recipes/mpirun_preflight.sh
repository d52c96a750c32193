#!/bin/bash
# Pre-flight with Open MPI: one process per node, reports to a shared directory, one verdict.
#
#   scripts/recipes/mpirun_preflight.sh /shared/preflight/job42 -np 16 --hostfile hosts --map-by ppr:1:node
#
# Arguments after the report directory go to mpirun unchanged. Identity comes from
# OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE, so the report files are <host>-rank<N>.json.
# Exit code: aggregate's (0 = start training, 1 = problems, 2 = could not run).
REPORT_DIR=${1:?usage: mpirun_preflight.sh REPORT_DIR [mpirun options...]}
shift
DOCTOR=${ASCEND_DOCTOR:-ascend-doctor}
BUDGET=${PREFLIGHT_BUDGET:-120}
mkdir -p "$REPORT_DIR"

# -x forwards the launch variables the report compares (HCCL_*) from this shell to every rank.
HCCL_EXPORTS=()
for var in $(compgen -e | grep '^HCCL_'); do HCCL_EXPORTS+=(-x "$var"); done

mpirun "$@" "${HCCL_EXPORTS[@]}" $DOCTOR preflight --report-dir "$REPORT_DIR" --also junit,prom \
    --budget "$BUDGET" --format text >/dev/null

$DOCTOR aggregate "$REPORT_DIR" --format html -o "$REPORT_DIR.html"
$DOCTOR aggregate "$REPORT_DIR"
