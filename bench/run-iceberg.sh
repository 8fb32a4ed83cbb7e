#!/usr/bin/env bash
# The Iceberg catalog measured in-process against DuckDB over the same Parquet files:
#   bench/run-iceberg.sh [--scale 1] [--runs 3] [--warmup 1] [--out bench/RESULTS.md|none] [--directory DIR]
#       CREATE TABLE iceberg... AS SELECT * FROM tpch.sfN.lineitem (rows/s), the same from a memory
#       table and into a table partitioned by month(l_shipdate); then a full-scan aggregate and a
#       one-month query (partition pruning) on Ontul and on DuckDB's read_parquet over the table's
#       data files (io.ontul.bench.iceberg.IcebergBenchmark)
# Builds the bench module (and what it needs) when its jar is missing or older than a source
# file; REBUILD=1 forces a build, SKIP_BUILD=1 runs what is built, MVN_ARGS adds Maven arguments
# (e.g. -o), JAVA_OPTS adds JVM options. The JVM flags are those of bench/run-flight.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

case "${1:-}" in
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
esac

MAIN=io.ontul.bench.iceberg.IcebergBenchmark
. bench/bench-common.sh
bench_build_if_needed
bench_run 12g "bench/run-iceberg.sh $*" "$MAIN" "$@"
