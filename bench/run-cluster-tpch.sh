#!/usr/bin/env bash
# TPC-H on one Ontul process and on clusters of a coordinator with one and with two workers,
# all processes on this machine; arguments go to io.ontul.bench.cluster.ClusterTpchBenchmark, e.g.
#   bench/run-cluster-tpch.sh --scale sf1 --runs 2 --warmup 1 --out bench/RESULTS.md
# Builds the bench module when needed (see bench-common.sh: SKIP_BUILD=1, REBUILD=1, MVN_ARGS).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

. bench/bench-common.sh
bench_build_if_needed
bench_run 1g "bench/run-cluster-tpch.sh $*" io.ontul.bench.cluster.ClusterTpchBenchmark "$@"
