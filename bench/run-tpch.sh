#!/usr/bin/env bash
# TPC-H on Ontul and DuckDB side by side; arguments go to io.ontul.bench.TpchBenchmark, e.g.
#   bench/run-tpch.sh --scale 1 --runs 3 --warmup 1 --queries q01,q05 --check
# Builds the bench module (and what it needs) when its jar is missing or older than a source
# file; REBUILD=1 forces a build, SKIP_BUILD=1 runs what is built, MVN_ARGS adds Maven arguments
# (e.g. -o), JAVA_OPTS adds JVM options (e.g. JAVA_OPTS=-Xmx8g).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

. bench/bench-common.sh
bench_build_if_needed
bench_run 16g "bench/run-tpch.sh $*" io.ontul.bench.TpchBenchmark "$@"
