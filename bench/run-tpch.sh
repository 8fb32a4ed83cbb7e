#!/usr/bin/env bash
# TPC-H on Ontul and DuckDB side by side; arguments go to io.ontul.bench.TpchBenchmark, e.g.
#   bench/run-tpch.sh --scale 1 --runs 3 --warmup 1 --queries q01,q05 --check
# Builds the bench module (and what it needs) when its jar is missing or older than a source
# file; REBUILD=1 forces a build, SKIP_BUILD=1 runs what is built, MVN_ARGS adds Maven arguments
# (e.g. -o), JAVA_OPTS adds JVM options (e.g. JAVA_OPTS=-Xmx8g).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

JAR="bench/target/ontul-bench-0.1.0-SNAPSHOT.jar"
LIB="bench/target/lib"

needs_build() {
    [ "${SKIP_BUILD:-0}" = 1 ] && return 1
    [ "${REBUILD:-0}" = 1 ] && return 0
    [ -f "$JAR" ] && [ -d "$LIB" ] || return 0
    [ -n "$(find pom.xml spi exchange engine catalogs bench \( -name target -prune \) -o \( -type f \( -name '*.java' -o -name 'pom.xml' -o -path '*/resources/*' -o -path '*/codegen/*' \) -newer "$JAR" -print \) | head -1)" ]
}

if needs_build; then
    echo "Building bench (mvn -q -B -pl bench -am package -DskipTests)..." >&2
    mvn -q -B -pl bench -am package -DskipTests ${MVN_ARGS:-}
fi

COMMAND="bench/run-tpch.sh $*"
exec java \
    -Xmx16g -XX:+UseParallelGC \
    --add-opens=java.base/java.nio=ALL-UNNAMED \
    -Darrow.enable_unsafe_memory_access=true \
    -Darrow.enable_null_check_for_get=false \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    "-Dontul.bench.command=${COMMAND% }" \
    ${JAVA_OPTS:-} \
    -cp "$JAR:$LIB/*" \
    io.ontul.bench.TpchBenchmark "$@"
