#!/usr/bin/env bash
# Nexmark's queries without joins (q0 q1 q2 q11 q14 q15 q16 q17 q22), Ontul against Flink 2.2.1's
# MiniCluster, both reading the same Kafka topic at the same parallelism, exactly-once checkpoints:
#   bench/run-nexmark.sh [--events 4000000] [--warmup-events 400000] [--partitions 4] [--parallelism 1] [--max-memory 6GB] [--ontul-sink blackhole|iceberg]
#       (--ontul-sink: blackhole, the default, counts and discards as Flink's sink does; iceberg writes Parquet)
#       [--queries all|q0,q1,...] [--engines flink,ontul] [--interval 10s] [--child-heap 8g]
#       [--out bench/RESULTS.md|none]
#   This JVM runs an in-process Kafka broker and pre-fills topic nexmark with generated persons,
#   auctions and bids; each engine runs in a child JVM of its own and runs every query as a
#   streaming job (once over topic nexmark-warmup, unmeasured, then over nexmark) and reports input
#   rows per CPU-second of its JVM; both engines' output is checked against each other.
#   (io.ontul.bench.streaming.NexmarkBenchmark)
#   Quick check: bench/run-nexmark.sh --events 200000 --warmup-events 20000 --out none
# Builds the bench module when needed, as bench/run-streaming.sh does (SKIP_BUILD=1, REBUILD=1,
# MVN_ARGS, JAVA_OPTS likewise). CHILD_JAVA_OPTS adds JVM options of the engines' JVMs, e.g.
# CHILD_JAVA_OPTS="-XX:StartFlightRecording=filename=/tmp/child.jfr,settings=profile" to profile one.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

case "${1:-}" in
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
esac

MAIN=io.ontul.bench.streaming.NexmarkBenchmark
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
bench_run 4g "bench/run-nexmark.sh $*" "$MAIN" "$@"
