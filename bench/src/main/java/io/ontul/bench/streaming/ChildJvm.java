package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one contender's main class in a JVM of its own, so that its CPU time is its own process's:
 * same Java, the parent's class path (Ontul) or the bench jar, target/flink-lib and then the
 * parent's class path (Flink). Standard error is inherited; {@link ResultLine}s on standard output
 * are collected, other output goes to standard error.
 */
final class ChildJvm
{
    /** The options bin/ontul gives the server (Arrow), and the parallel collector bench/bench-common.sh uses. */
    private static final List<String> COMMON_OPTIONS = List.of(
            "-XX:+UseParallelGC",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-Darrow.enable_unsafe_memory_access=true",
            "-Darrow.enable_null_check_for_get=false",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    /** What Flink's own scripts open on Java 17 (env.java.opts.all of its default config.yaml), and quieter logs. */
    private static final List<String> FLINK_OPTIONS = List.of(
            // Kafka's consumer metrics collide in Flink's metric groups: a warning per metric
            "-Dorg.slf4j.simpleLogger.log.org.apache.flink.metrics.MetricGroup=error",
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private final String heap;

    ChildJvm(String heap)
    {
        this.heap = requireNonNull(heap, "heap is null");
    }

    /** The child's result lines; throws when it exits with another code than 0 or outlives {@code timeoutSeconds}. */
    List<Map<String, String>> run(String mainClass, boolean flink, List<String> arguments, long timeoutSeconds)
            throws IOException, InterruptedException
    {
        List<Map<String, String>> results = new ArrayList<>();
        run(mainClass, flink, arguments, timeoutSeconds, results);
        return List.copyOf(results);
    }

    /**
     * Adds the child's result lines to {@code results} as they come, so that those printed before
     * a failure stay there; throws when it exits with another code than 0 or outlives
     * {@code timeoutSeconds}.
     */
    void run(String mainClass, boolean flink, List<String> arguments, long timeoutSeconds, List<Map<String, String>> results)
            throws IOException, InterruptedException
    {
        // Flink unpacks its RPC system (a 21 MB jar) and more into java.io.tmpdir and leaves them there
        Path temporary = Files.createTempDirectory("bench-child-");
        try {
            run(mainClass, flink, arguments, timeoutSeconds, temporary, results);
        }
        finally {
            TemporaryDirectories.delete(temporary);
        }
    }

    private void run(String mainClass, boolean flink, List<String> arguments, long timeoutSeconds, Path temporary, List<Map<String, String>> results)
            throws IOException, InterruptedException
    {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.add("-Djava.io.tmpdir=" + temporary);
        command.addAll(COMMON_OPTIONS);
        if (flink) {
            command.addAll(FLINK_OPTIONS);
        }
        // e.g. a flight recording of a child: CHILD_JAVA_OPTS="-XX:StartFlightRecording=filename=/tmp/child.jfr,settings=profile"
        String extra = System.getenv("CHILD_JAVA_OPTS");
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.trim().split("\\s+")));
        }
        command.add("-cp");
        command.add(flink ? flinkClassPath() : System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(arguments);
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        process.getOutputStream().close();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    String text = line;
                    ResultLine.parse(text).ifPresentOrElse(fields -> {
                        synchronized (results) {
                            results.add(fields);
                        }
                    }, () -> System.err.println(text));
                }
            }
            catch (IOException e) {
                System.err.println("Reading the child's output failed: " + e.getMessage());
            }
        }, "child-output");
        reader.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            reader.join();
            throw new IllegalStateException(mainClass + " did not finish within " + timeoutSeconds + " s");
        }
        reader.join();
        if (process.exitValue() != 0) {
            throw new IllegalStateException(mainClass + " exited with code " + process.exitValue());
        }
    }

    /** The bench jar (or classes), target/flink-lib/* before the parent's class path, which lacks Flink. */
    private static String flinkClassPath()
    {
        Path location;
        try {
            location = Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Path flinkLibrary = location.toAbsolutePath().getParent().resolve("flink-lib");
        if (!Files.isDirectory(flinkLibrary)) {
            throw new IllegalStateException(flinkLibrary + " is missing: build with mvn -pl bench package (bench/run-streaming.sh does)");
        }
        return location + File.pathSeparator + flinkLibrary + File.separator + "*" + File.pathSeparator + System.getProperty("java.class.path");
    }
}
