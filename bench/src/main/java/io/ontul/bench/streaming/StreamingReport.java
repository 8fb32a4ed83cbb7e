package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The markdown section of one {@link StreamingBenchmark} run: facts, one row per contender, the goals. */
final class StreamingReport
{
    private final StreamingBenchmarkOptions options;
    private final String command;
    private final String started;
    private final StreamingBenchmark.Prefill prefill;
    private final ExpectedWindows expected;
    private final List<ContenderResult> results;
    private final Measured latency;
    private final Measured recovery;

    StreamingReport(StreamingBenchmarkOptions options, String command, String started, StreamingBenchmark.Prefill prefill, ExpectedWindows expected,
            List<ContenderResult> results, Measured latency, Measured recovery)
    {
        this.options = requireNonNull(options, "options is null");
        this.command = requireNonNull(command, "command is null");
        this.started = requireNonNull(started, "started is null");
        this.prefill = requireNonNull(prefill, "prefill is null");
        this.expected = requireNonNull(expected, "expected is null");
        this.results = List.copyOf(requireNonNull(results, "results is null"));
        this.latency = requireNonNull(latency, "latency is null");
        this.recovery = requireNonNull(recovery, "recovery is null");
    }

    String markdown()
    {
        long records = prefill.records();
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "## Streaming: Kafka → 10 s tumbling SUM/COUNT by 100 categories, %,d events, %s%n%n", options.rows(), started));
        List<String> facts = new ArrayList<>();
        facts.add("Machine: " + machine());
        facts.add("Java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + "; each contender in a JVM of its own with -Xmx"
                + options.childHeap() + " -XX:+UseParallelGC");
        facts.add("Command: `" + command + "`");
        facts.add(String.format(Locale.ROOT, "Topic `events`: %d partitions, %,d JSON records of about %d bytes (%,d events 1 ms apart in event time, up to 0.5 s out of order, "
                + "then one closing event per partition a day ahead), pre-filled in %.1f s into the in-process KRaft broker of the parent JVM",
                options.partitions(), records, prefill.averageBytes(), options.rows(), prefill.nanos() / 1e9));
        facts.add("Pipeline: `SELECT window_start, window_end, category, SUM(amount) AS total, COUNT(*) AS cnt FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(event_time), "
                + "INTERVAL '10' SECOND)) GROUP BY window_start, window_end, category`, watermark delay 1 s, read from the earliest offset");
        facts.add(String.format(Locale.ROOT, "Expected output: %,d window rows, sum(cnt) %,d, computed from the generator; every contender's output is checked "
                + "(Ontul: the sink table; Flink: its counting sink, which also gets the closing events' window, 1 row more, fired at the end of its bounded input)",
                expected.rows(), expected.countSum()));
        facts.add("Rows per CPU-second: input records / CPU time of the contender's own JVM (all threads; JIT, GC, Kafka client included), from just before "
                + "`CREATE STREAMING JOB` to the end of `STOP STREAMING JOB` (Ontul; the stop's final checkpoint commits what is left), from just before planning "
                + "the query to the end of the bounded job (Flink; the MiniCluster's start and stop included). The broker and PostgreSQL run in other processes and "
                + "are not counted. Wall time is over the same span");
        facts.add(String.format(Locale.ROOT, "Each contender's JVM first runs the same job once over topic `warmup` (%,d events; JIT warm-up, not measured), then %d measured job(s) over `events`; "
                + "the one with the least CPU time counts; the last column lists every run", options.warmupRows(), options.runs()));
        text.append(facts.stream().map(fact -> "- " + fact).collect(Collectors.joining("\n"))).append("\n\n");

        text.append("| Contender | Rows per CPU-second | CPU s | Wall s | Rows per wall-second | Checkpoints | Window rows | Check | Every run, rows per CPU-second |\n");
        text.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
        for (ContenderResult result : results) {
            StreamingContender contender = result.contender();
            text.append("| ").append(contender.id()).append(": ").append(contender.description());
            Optional<ContenderRun> best = result.best();
            if (best.isEmpty()) {
                text.append(" | FAILED |  |  |  |  |  |  | ").append(result.failure().orElse("").replace("|", "\\|")).append(" |\n");
                continue;
            }
            ContenderRun run = best.get();
            ExpectedWindows wanted = contender.flink() ? expected.withClosingWindow(options.partitions()) : expected;
            List<String> checks = new ArrayList<>();
            for (ContenderRun each : result.runs()) {
                String check = wanted.check(each.outRows(), each.countSum(), each.totalSum());
                if (!check.equals("ok")) {
                    checks.add("run " + each.run() + ": " + check);
                }
                if (each.recordsIn() != records && !contender.flink()) {
                    checks.add("run " + each.run() + ": read " + each.recordsIn() + " of " + records + " records");
                }
                if (each.late() > 0) {
                    checks.add("run " + each.run() + ": " + each.late() + " late records");
                }
            }
            text.append(" | ").append(count(run.rowsPerCpuSecond(records)))
                    .append(" | ").append(seconds(run.cpuNanos()))
                    .append(" | ").append(seconds(run.wallNanos()))
                    .append(" | ").append(count(run.rowsPerWallSecond(records)))
                    .append(" | ").append(run.checkpoints() < 0 ? "" : String.valueOf(run.checkpoints()))
                    .append(" | ").append(String.format(Locale.ROOT, "%,d", run.outRows()))
                    .append(" | ").append(checks.isEmpty() ? "ok" : String.join("; ", checks))
                    .append(" | ").append(result.runs().stream().map(each -> count(each.rowsPerCpuSecond(records))).collect(Collectors.joining(", ")))
                    .append(" |\n");
        }
        text.append('\n');
        text.append(goals(records));
        return text.toString();
    }

    private String goals(long records)
    {
        List<String> lines = new ArrayList<>();
        Optional<ContenderRun> ontulIceberg = best("ontul-iceberg-10s");
        for (String flink : List.of("flink-p1-10s", "flink-p2-10s")) {
            Optional<ContenderRun> peer = best(flink);
            if (ontulIceberg.isPresent() && peer.isPresent()) {
                lines.add(String.format(Locale.ROOT, "Ontul → Iceberg (10 s) vs %s, rows per CPU-second: **%.2f×** (goal ≥ 2×)",
                        flink, ontulIceberg.get().rowsPerCpuSecond(records) / peer.get().rowsPerCpuSecond(records)));
            }
        }
        Optional<ContenderRun> parallel = best("ontul-iceberg-10s-p2");
        if (ontulIceberg.isPresent() && parallel.isPresent()) {
            lines.add(String.format(Locale.ROOT, "Ontul → Iceberg (10 s), parallelism 2 vs 1: input rows per wall-second **%.2f×** (goal ≥ 1.7×; %,.0f vs %,.0f), "
                    + "rows per CPU-second **%.2f×** (goal ≥ 0.9×: the shuffle must be cheap; %,.0f vs %,.0f)",
                    parallel.get().rowsPerWallSecond(records) / ontulIceberg.get().rowsPerWallSecond(records), parallel.get().rowsPerWallSecond(records), ontulIceberg.get().rowsPerWallSecond(records),
                    parallel.get().rowsPerCpuSecond(records) / ontulIceberg.get().rowsPerCpuSecond(records), parallel.get().rowsPerCpuSecond(records), ontulIceberg.get().rowsPerCpuSecond(records)));
        }
        for (String sink : List.of("iceberg", "postgres")) {
            Optional<ContenderRun> on = best("ontul-" + sink + "-10s");
            Optional<ContenderRun> off = best("ontul-" + sink + "-off");
            if (on.isPresent() && off.isPresent()) {
                lines.add(String.format(Locale.ROOT, "Checkpoint overhead, Ontul → %s, CPU time with checkpoints every 10 s vs off: **%+.1f%%** (goal ≤ 2%%; %d vs %d checkpoints%s)",
                        sink.equals("iceberg") ? "Iceberg" : "PostgreSQL", 100.0 * (on.get().cpuNanos() - off.get().cpuNanos()) / off.get().cpuNanos(),
                        on.get().checkpoints(), off.get().checkpoints(),
                        on.get().checkpoints() <= off.get().checkpoints() ? "; the run was shorter than the interval, so the difference is noise: use more --rows" : ""));
            }
        }
        Optional<ContenderRun> flinkOn = best("flink-p1-10s");
        Optional<ContenderRun> flinkOff = best("flink-p1-off");
        if (flinkOn.isPresent() && flinkOff.isPresent()) {
            lines.add(String.format(Locale.ROOT, "Checkpoint overhead, Flink parallelism 1: %+.1f%%", 100.0 * (flinkOn.get().cpuNanos() - flinkOff.get().cpuNanos()) / flinkOff.get().cpuNanos()));
        }
        if (latency.fields().isPresent()) {
            lines.add(String.format(Locale.ROOT, "End-to-end latency, Ontul → Iceberg with checkpoints every 1 s (not 10 s: a window is visible only after the checkpoint "
                    + "that follows its firing), %,d events/s live, event time = wall clock: **p50 %s ms, p99 %s ms** (min %s, max %s) over %s windows; "
                    + "latency = first poll (every 100 ms) of `SELECT max(window_end)` that shows the window − broker acknowledgement of its last event; below 100 windows p99 is the maximum",
                    options.latencyRate(), latency.get("p50_ms"), latency.get("p99_ms"), latency.get("min_ms"), latency.get("max_ms"), latency.get("windows")));
        }
        else {
            lines.add("End-to-end latency: " + latency.failure().map(reason -> "FAILED: " + reason).orElse("not measured (--latency-windows 0)"));
        }
        if (recovery.fields().isPresent()) {
            lines.add(String.format(Locale.ROOT, "Recovery after kill -9 of the server process (Ontul → Iceberg, checkpoints every 10 s, %s checkpoint(s) before the kill "
                    + "%d s into the job, %,d events/s live; restarted at once on the same data directory): server ready after %.1f s, job RUNNING after %.1f s, "
                    + "**caught up after %.1f s** (watermark past the last event sent before the kill); afterwards the table held the windows of all %,d events sent exactly once: %s",
                    recovery.get("checkpoints_before_kill"), options.recoverySeconds(), options.latencyRate(), recovery.getLong("ready_ms") / 1000.0,
                    recovery.getLong("running_ms") / 1000.0, recovery.getLong("caught_up_ms") / 1000.0, recovery.getLong("sent"), recovery.get("check")));
        }
        else {
            lines.add("Recovery after kill -9: " + recovery.failure().map(reason -> "FAILED: " + reason).orElse("not measured (--recovery-seconds 0)"));
        }
        return lines.stream().map(line -> "- " + line).collect(Collectors.joining("\n")) + "\n";
    }

    private Optional<ContenderRun> best(String id)
    {
        return results.stream().filter(result -> result.contender().id().equals(id)).findFirst().flatMap(ContenderResult::best);
    }

    private static String count(double value)
    {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String seconds(long nanos)
    {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }

    private static String machine()
    {
        String cpu = "unknown CPU";
        String memory = "";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim()).findFirst().orElse(cpu);
            memory = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(line -> line.startsWith("MemTotal"))
                    .map(line -> String.format(Locale.ROOT, ", %.1f GiB RAM", Long.parseLong(line.replaceAll("\\D", "")) / (1024.0 * 1024.0))).findFirst().orElse("");
        }
        catch (IOException | RuntimeException e) {
            // not Linux: the core count and OS still say something
        }
        return Runtime.getRuntime().availableProcessors() + " cores, " + cpu + memory + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }
}
