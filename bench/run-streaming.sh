#!/usr/bin/env bash
# Streaming jobs, Ontul against Flink 2.2.1's MiniCluster, on the issue's pipeline
# (Kafka → 10 s tumbling SUM/COUNT by 100 categories → Iceberg / PostgreSQL):
#   bench/run-streaming.sh [--rows 8000000] [--warmup-rows 1000000] [--partitions 4] [--runs 1]
#       [--contenders LIST|all|none] [--latency-windows 20] [--latency-rate 20000]
#       [--recovery-seconds 25] [--child-heap 4g] [--out bench/RESULTS.md|none]
#   This JVM runs an in-process Kafka broker (and an embedded PostgreSQL) and pre-fills topic events;
#   every contender runs in a child JVM of its own (a warm-up job, then the measured ones) and
#   reports input rows per CPU-second of that JVM, checkpoints every 10 s vs off, its output checked;
#   then end-to-end latency (Ontul → Iceberg, 1 s checkpoints, live producer) and recovery after
#   kill -9 of the server as its own process (10 s checkpoints, live producer, restarted at once).
#   (io.ontul.bench.streaming.StreamingBenchmark; --warmup-rows 0 skips the warm-up job,
#   --latency-windows 0 the latency run, --recovery-seconds 0 the recovery run)
#   Quick check: bench/run-streaming.sh --rows 200000 --warmup-rows 50000 --latency-windows 3 --recovery-seconds 12 --out none
# Builds the bench module when its jar, target/lib or target/flink-lib is missing or older than a
# source file; REBUILD=1 forces a build, SKIP_BUILD=1 runs what is built, MVN_ARGS adds Maven
# arguments (e.g. -o), JAVA_OPTS adds JVM options of the parent JVM (not of the contenders).
# CHILD_JAVA_OPTS adds JVM options of the contenders' JVMs (e.g. a flight recording).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

case "${1:-}" in
    -h|--help) sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
esac

MAIN=io.ontul.bench.streaming.StreamingBenchmark
FLINK_LIB="bench/target/flink-lib"
. bench/bench-common.sh
if [ "${SKIP_BUILD:-0}" != 1 ] && [ ! -d "$FLINK_LIB" ]; then
    REBUILD=1
fi
if bench_needs_build; then
    # like target/lib, flink-lib keeps jars of older builds unless emptied
    rm -rf "$FLINK_LIB"
fi
bench_build_if_needed
bench_run 4g "bench/run-streaming.sh $*" "$MAIN" "$@"
