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
    # copy-dependencies never removes a jar: a version left from an older build would share the
    # class path with its successor
    rm -rf "$LIB"
    mvn -q -B -pl bench -am package -DskipTests ${MVN_ARGS:-}
fi

COMMAND="bench/run-iceberg.sh $*"
exec java \
    -Xmx12g -XX:MaxDirectMemorySize=12g -XX:+UseParallelGC \
    --add-opens=java.base/java.nio=ALL-UNNAMED \
    -Darrow.enable_unsafe_memory_access=true \
    -Darrow.enable_null_check_for_get=false \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    "-Dontul.bench.command=${COMMAND% }" \
    ${JAVA_OPTS:-} \
    -cp "$JAR:$LIB/*" \
    "$MAIN" "$@"
