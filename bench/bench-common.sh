# Shared by the bench/run-*.sh scripts (sourced, not run): builds the bench module when its jar is
# missing or older than a source file, then starts one benchmark program.
#   SKIP_BUILD=1  run what is built          REBUILD=1  always build
#   MVN_ARGS      more Maven arguments       JAVA_OPTS  more JVM options
# The JVM flags are those every JVM allocating Arrow memory needs (shared/STACK.md).

BENCH_JAR="bench/target/ontul-bench-0.1.0-SNAPSHOT.jar"
BENCH_LIB="bench/target/lib"

bench_needs_build() {
    [ "${SKIP_BUILD:-0}" = 1 ] && return 1
    [ "${REBUILD:-0}" = 1 ] && return 0
    [ -f "$BENCH_JAR" ] && [ -d "$BENCH_LIB" ] || return 0
    [ -n "$(find pom.xml spi exchange engine catalogs flight-server jdbc-driver bench \( -name target -prune \) -o \( -type f \( -name '*.java' -o -name 'pom.xml' -o -path '*/resources/*' -o -path '*/codegen/*' \) -newer "$BENCH_JAR" -print \) | head -1)" ]
}

bench_build_if_needed() {
    if bench_needs_build; then
        echo "Building bench (mvn -q -B -pl bench -am package -DskipTests)..." >&2
        # copy-dependencies never removes a jar: a version left from an older build (protobuf-java
        # 3.25 beside 4.30, say) would share the class path with its successor
        rm -rf "$BENCH_LIB"
        mvn -q -B -pl bench -am package -DskipTests ${MVN_ARGS:-}
    fi
}

# bench_run HEAP COMMAND MAIN [ARGS...]: HEAP sizes the heap and direct memory (e.g. 12g);
# COMMAND is the command line as the user typed it, recorded in the results.
# With BENCH_FIXED_HEAP=1 (the spill benchmark sets it) the heap is committed and touched at
# start (-Xms, AlwaysPreTouch): otherwise the collector grows and shrinks it between runs, and
# whichever run grows it pays for the page faults (on these machines the SF1 aggregate under
# its limit once took 3.8 s instead of 1.7 s, 3.7 s of it system time, in 230,000 faults).
bench_run() {
    local heap="$1" command="$2" main="$3" fixed_heap=""
    shift 3
    if [ "${BENCH_FIXED_HEAP:-0}" = 1 ]; then
        fixed_heap="-Xms$heap -XX:+AlwaysPreTouch"
    fi
    exec java \
        -Xmx"$heap" $fixed_heap -XX:MaxDirectMemorySize="$heap" -XX:+UseParallelGC \
        --add-opens=java.base/java.nio=ALL-UNNAMED \
        -Darrow.enable_unsafe_memory_access=true \
        -Darrow.enable_null_check_for_get=false \
        -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
        "-Dontul.bench.command=${command% }" \
        ${JAVA_OPTS:-} \
        -cp "$BENCH_JAR:$BENCH_LIB/*" \
        "$main" "$@"
}
