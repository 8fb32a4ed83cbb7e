package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The markdown section of one {@link NexmarkBenchmark} run: facts, then one row per query with both engines side by side. */
final class NexmarkReport
{
    private final NexmarkBenchmark.Options options;
    private final String command;
    private final String started;
    private final long prefillNanos;
    private final long averageBytes;
    private final Map<String, List<Map<String, String>>> results;

    NexmarkReport(NexmarkBenchmark.Options options, String command, String started, long prefillNanos, long averageBytes, Map<String, List<Map<String, String>>> results)
    {
        this.options = requireNonNull(options, "options is null");
        this.command = requireNonNull(command, "command is null");
        this.started = requireNonNull(started, "started is null");
        this.prefillNanos = prefillNanos;
        this.averageBytes = averageBytes;
        this.results = Map.copyOf(requireNonNull(results, "results is null"));
    }

    String markdown()
    {
        long records = options.events() + options.partitions();
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "## Nexmark: Ontul vs Flink 2.2.1, %,d events, parallelism %d, %s%n%n", options.events(), options.parallelism(), started));
        List<String> facts = new ArrayList<>();
        facts.add("Command: `" + command + "`");
        facts.add(String.format(Locale.ROOT, "Topic `nexmark`: %d partitions, %,d JSON records of about %d bytes (Nexmark's mix: 2%% persons, 6%% auctions, 92%% bids; "
                + "100,000 events per second of event time), then one closing event per partition two days ahead; pre-filled in %.1f s into the in-process broker of the parent JVM",
                options.partitions(), records, averageBytes, prefillNanos / 1e9));
        facts.add("Each engine in a JVM of its own (-Xmx" + options.childHeap() + " -XX:+UseParallelGC; Ontul's jobs with 'max-memory' = '" + options.maxMemory()
                + "', off the heap); per query one warm-up job over `nexmark-warmup` ("
                + String.format(Locale.ROOT, "%,d", options.warmupEvents()) + " events, unmeasured), then the measured job over the whole topic");
        facts.add("Both: exactly-once checkpoints every " + options.interval() + ", watermark 4 s behind `date_time`, read from the earliest offset. "
                + "Flink: Kafka table bounded at the latest offset, the `bid` view, hashmap state backend, mini-batch (2 s, 50,000) and split distinct aggregation "
                + "as Nexmark's configuration sets them; output into a counting sink that discards (Nexmark's runs use `blackhole`). "
                + (options.ontulSink().equals("blackhole")
                        ? "Ontul: a streaming job into a table of its `blackhole` catalog (rows counted and discarded, as Flink's sink does; checked by count only), stopped once it has read every record"
                        : "Ontul: a streaming job into an Iceberg table (Parquet files, one commit per checkpoint), stopped once it has read every record (its final checkpoint commits the rest)"));
        facts.add("Rows per CPU-second: input records (all events, not only bids) / CPU time of the engine's JVM (all threads; JIT, GC, Kafka client included), "
                + "from just before planning the query to the end of the job (Flink: MiniCluster start and stop included; Ontul: CREATE to the end of STOP)");
        facts.add(options.ontulSink().equals("blackhole")
                ? "Check: both engines wrote the same number of rows (Ontul's are discarded, so their sums are not compared: `--ontul-sink iceberg` "
                        + "compares them too); a query whose check fails gets no ratio"
                : "Check: both engines wrote the same number of rows with the same sum of the named column (a text column: of its lengths); "
                        + "a query whose check fails gets no ratio");
        text.append(facts.stream().map(fact -> "- " + fact).collect(Collectors.joining("\n"))).append("\n\n");

        text.append("| Query | Ontul rows per CPU-s | Flink rows per CPU-s | Ontul / Flink | Ontul CPU s / wall s | Flink CPU s / wall s | Rows out (Ontul / Flink) | Check |\n");
        text.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        List<Double> ratios = new ArrayList<>();
        for (NexmarkQuery query : options.queries()) {
            Optional<Map<String, String>> ontul = result("ontul", query);
            Optional<Map<String, String>> flink = result("flink", query);
            text.append("| ").append(query.id()).append(": ").append(query.description())
                    .append(" | ").append(rate(ontul, records))
                    .append(" | ").append(rate(flink, records));
            if (succeeded(ontul) && succeeded(flink) && check(query, ontul, flink).startsWith("ok")) {
                double ratio = cpu(flink.get()) / cpu(ontul.get());
                ratios.add(ratio);
                text.append(String.format(Locale.ROOT, " | **%.2f×**", ratio));
            }
            else {
                text.append(" | ");
            }
            text.append(" | ").append(times(ontul))
                    .append(" | ").append(times(flink))
                    .append(" | ").append(succeeded(ontul) ? ontul.get().get("out_rows") : "").append(" / ").append(succeeded(flink) ? flink.get().get("out_rows") : "")
                    .append(" | ").append(check(query, ontul, flink))
                    .append(" |\n");
        }
        text.append('\n');
        if (!ratios.isEmpty()) {
            double geomean = Math.exp(ratios.stream().mapToDouble(Math::log).average().orElse(0));
            long met = ratios.stream().filter(ratio -> ratio >= 2).count();
            text.append(String.format(Locale.ROOT, "- Ontul / Flink rows per CPU-second: geometric mean **%.2f×** over %d queries; %d of them at or above the goal of 2×%n",
                    geomean, ratios.size(), met));
        }
        text.append("- Not run: q5 and q7 (they join: streaming jobs do not join yet); the other Nexmark queries join persons, auctions and bids\n");
        return text.toString();
    }

    private Optional<Map<String, String>> result(String engine, NexmarkQuery query)
    {
        List<Map<String, String>> lines = results.getOrDefault(engine, List.of());
        Optional<Map<String, String>> line = lines.stream().filter(fields -> query.id().equals(fields.get("query"))).findFirst();
        if (line.isPresent()) {
            return line;
        }
        // the engine's JVM failed before it reported this query
        return lines.stream().filter(fields -> fields.containsKey(NexmarkBenchmark.ENGINE_ERROR)).findFirst().map(fields -> Map.of("error", fields.get(NexmarkBenchmark.ENGINE_ERROR)));
    }

    private static boolean succeeded(Optional<Map<String, String>> result)
    {
        return result.isPresent() && !result.get().containsKey("error");
    }

    private static double cpu(Map<String, String> result)
    {
        return Long.parseLong(result.get("cpu_ns"));
    }

    private static String rate(Optional<Map<String, String>> result, long records)
    {
        if (result.isEmpty()) {
            return "not run";
        }
        if (result.get().containsKey("error")) {
            return "FAILED: " + result.get().get("error").replace("|", "\\|");
        }
        return String.format(Locale.ROOT, "%,.0f", records / (cpu(result.get()) / 1e9));
    }

    private static String times(Optional<Map<String, String>> result)
    {
        if (!succeeded(result)) {
            return "";
        }
        return String.format(Locale.ROOT, "%.1f / %.1f", cpu(result.get()) / 1e9, Long.parseLong(result.get().get("wall_ns")) / 1e9);
    }

    private static String check(NexmarkQuery query, Optional<Map<String, String>> ontul, Optional<Map<String, String>> flink)
    {
        if (!succeeded(ontul) || !succeeded(flink)) {
            return "";
        }
        List<String> problems = new ArrayList<>();
        if (!ontul.get().get("out_rows").equals(flink.get().get("out_rows"))) {
            problems.add("rows differ");
        }
        if (ontul.get().get("check_sum") == null) {
            // Ontul's rows went into a blackhole table: only their number can be compared
            return problems.isEmpty() ? "ok, rows only (Ontul's output discarded)" : String.join("; ", problems);
        }
        double mine = Double.parseDouble(ontul.get().get("check_sum"));
        double theirs = Double.parseDouble(flink.get().get("check_sum"));
        if (Math.abs(mine - theirs) > 1e-9 * Math.max(1, Math.abs(theirs))) {
            problems.add(String.format(Locale.ROOT, "sum(%s) %s vs %s", query.checkColumn(), mine, theirs));
        }
        long late = Long.parseLong(ontul.get().getOrDefault("late", "0"));
        if (late > 0) {
            problems.add(late + " late rows in Ontul");
        }
        return problems.isEmpty() ? "ok, sum(" + query.checkColumn() + ") " + String.format(Locale.ROOT, "%.0f", mine) : String.join("; ", problems);
    }
}
