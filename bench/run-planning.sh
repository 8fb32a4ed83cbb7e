#!/usr/bin/env bash
# Planning time on Ontul and DuckDB side by side: EXPLAIN of the 22 TPC-H queries and of joins of
# 8, 12, 16, 20, 32 and 64 tables (io.ontul.bench.PlanningBenchmark), e.g.
#   bench/run-planning.sh --scale 1 --runs 5 --warmup 2
#   bench/run-planning.sh --scale 0.1 --queries join20,join64 --runs 5 --warmup 2
# Both engines load the tables into memory first (not timed). Build and environment knobs as in
# bench/run-tpch.sh (REBUILD=1, SKIP_BUILD=1, MVN_ARGS, JAVA_OPTS).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

. bench/bench-common.sh
bench_build_if_needed
bench_run 16g "bench/run-planning.sh $*" io.ontul.bench.PlanningBenchmark "$@"
