#!/usr/bin/env bash
# The Exchange Manager measured in-process:
#   bench/run-spill.sh spill [--scale 1] [--runs 3] [--warmup 1] [--fraction 0.1] [--queries aggregate,join,orders-join,sort,window,window-total] [--compression lz4] [--out bench/RESULTS.md|none]
#       GROUP BY, a join with a large build side and ORDER BY on lineitem/orders, on Ontul with
#       and without a memory limit (10% of the query's working set), encryption on and off, and
#       on DuckDB with the same limits (io.ontul.bench.SpillBenchmark)
#   bench/run-spill.sh checkpoint [--scale 1] [--runs 3] [--out bench/RESULTS.md|none] [--directory DIR]
#       a checkpoint of lineitem's Arrow batches written and read back through the checkpoint
#       store, encryption on/off x compression none/lz4, beside the disk's raw rate
#       (io.ontul.bench.CheckpointStoreBenchmark)
# Builds the bench module (and what it needs) when its jar is missing or older than a source
# file; REBUILD=1 forces a build, SKIP_BUILD=1 runs what is built, MVN_ARGS adds Maven arguments
# (e.g. -o), JAVA_OPTS adds JVM options. The JVM flags are those of bench/run-flight.sh, with
# the heap committed and touched at start (BENCH_FIXED_HEAP in bench/bench-common.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

usage() {
    sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
}

case "${1:-}" in
    spill) MAIN=io.ontul.bench.SpillBenchmark ;;
    checkpoint) MAIN=io.ontul.bench.CheckpointStoreBenchmark ;;
    *) usage; exit 2 ;;
esac

. bench/bench-common.sh
bench_build_if_needed
BENCH_FIXED_HEAP=1 bench_run 12g "bench/run-spill.sh $*" "$MAIN" "${@:2}"
