#!/usr/bin/env bash
# TPC-DS (all 99 queries, 103 texts) on Ontul and DuckDB side by side; arguments go to
# io.ontul.bench.TpcdsBenchmark, e.g.
#   bench/run-tpcds.sh --scale 1 --runs 1 --warmup 0 --check
#   bench/run-tpcds.sh --scale 1 --queries q14a,q14b,q72 --check
# Both engines load the generated rows into memory first (not timed). Build and environment
# knobs as in bench/run-tpch.sh (REBUILD=1, SKIP_BUILD=1, MVN_ARGS, JAVA_OPTS).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

. bench/bench-common.sh
bench_build_if_needed
bench_run 16g "bench/run-tpcds.sh $*" io.ontul.bench.TpcdsBenchmark "$@"
