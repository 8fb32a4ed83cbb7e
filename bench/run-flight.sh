#!/usr/bin/env bash
# Ontul's Flight SQL server, started in-process, measured from a client in the same JVM:
#   bench/run-flight.sh stream [--scale 1] [--runs 5] [--warmup 2] [--out bench/RESULTS.md|none]
#       SELECT * FROM lineitem through FlightSqlClient vs a plain Arrow Flight server
#       (io.ontul.bench.FlightStreamBenchmark)
#   bench/run-flight.sh jdbc [--scale 1] [--runs 3] [--warmup 1] [--queries q01,q05] [--check] [--out ...]
#       the 22 TPC-H queries through Arrow's Flight SQL JDBC driver vs DuckDB's JDBC driver
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
    sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
}

case "${1:-}" in
    stream) MAIN=io.ontul.bench.FlightStreamBenchmark ;;
    jdbc) MAIN=io.ontul.bench.JdbcTpchBenchmark ;;
    *) usage; exit 2 ;;
esac

JAR="bench/target/ontul-bench-0.1.0-SNAPSHOT.jar"
LIB="bench/target/lib"

needs_build() {
    [ "${SKIP_BUILD:-0}" = 1 ] && return 1
    [ "${REBUILD:-0}" = 1 ] && return 0
    [ -f "$JAR" ] && [ -d "$LIB" ] || return 0
    [ -n "$(find pom.xml spi exchange engine catalogs flight-server bench \( -name target -prune \) -o \( -type f \( -name '*.java' -o -name 'pom.xml' -o -path '*/resources/*' -o -path '*/codegen/*' \) -newer "$JAR" -print \) | head -1)" ]
}

if needs_build; then
    echo "Building bench (mvn -q -B -pl bench -am package -DskipTests)..." >&2
    # copy-dependencies never removes a jar: a version left from an older build (protobuf-java
    # 3.25 beside 4.30) would share the class path with its successor
    rm -rf "$LIB"
    mvn -q -B -pl bench -am package -DskipTests ${MVN_ARGS:-}
fi

COMMAND="bench/run-flight.sh $*"
exec java \
    -Xmx16g -XX:MaxDirectMemorySize=16g -XX:+UseParallelGC \
    --add-opens=java.base/java.nio=ALL-UNNAMED \
    -Darrow.enable_unsafe_memory_access=true \
    -Darrow.enable_null_check_for_get=false \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    "-Dontul.bench.command=${COMMAND% }" \
    ${JAVA_OPTS:-} \
    -cp "$JAR:$LIB/*" \
    "$MAIN" "${@:2}"
