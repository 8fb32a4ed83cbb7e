#!/usr/bin/env bash
# Ontul's Flight SQL server, started in-process, measured from a client in the same JVM:
#   bench/run-flight.sh stream [--scale 1] [--runs 5] [--warmup 2] [--jdbc true] [--out bench/RESULTS.md|none]
#       SELECT * FROM lineitem through FlightSqlClient vs a plain Arrow Flight server; with --jdbc true,
#       the memory table read through the JDBC drivers with typed getters vs FlightSqlClient
#       (io.ontul.bench.FlightStreamBenchmark)
#   bench/run-flight.sh jdbc [--scale 1] [--runs 3] [--warmup 1] [--queries q01,q05] [--check] [--out ...]
#       the 22 TPC-H queries through the project's JDBC driver (jdbc:ontul://; JAVA_OPTS=-Dontul.bench.jdbc=arrow
#       for Arrow's Flight SQL JDBC driver) vs DuckDB's JDBC driver
#       (io.ontul.bench.JdbcTpchBenchmark, same options as bench/run-tpch.sh)
# Builds the bench module (and what it needs) when its jar is missing or older than a source
# file; REBUILD=1 forces a build, SKIP_BUILD=1 runs what is built, MVN_ARGS adds Maven arguments
# (e.g. -o), JAVA_OPTS adds JVM options. The JVM flags are those of bench/run-tpch.sh plus an
# explicit direct-memory cap (Arrow buffers are direct memory: the stream benchmark holds
# lineitem twice, a memory table and the plain server's recorded batches). Like bin/ontul they
# turn Arrow's null check in get() off; Arrow's JDBC driver in this JVM then reads a NULL VARCHAR
# as "" (no TPC-H answer has NULLs; --check compares every value with DuckDB's).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

usage() {
    sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
}

case "${1:-}" in
    stream) MAIN=io.ontul.bench.FlightStreamBenchmark ;;
    jdbc) MAIN=io.ontul.bench.JdbcTpchBenchmark ;;
    *) usage; exit 2 ;;
esac

. bench/bench-common.sh
bench_build_if_needed
bench_run 16g "bench/run-flight.sh $*" "$MAIN" "${@:2}"
