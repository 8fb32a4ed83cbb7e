package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Command line of {@link StreamingBenchmark}. */
record StreamingBenchmarkOptions(long rows, long warmupRows, int partitions, int runs, List<StreamingContender> contenders, int latencyWindows, int latencyRate,
        int recoverySeconds, String childHeap, Optional<Path> out)
{
    static final String USAGE = String.join(System.lineSeparator(),
            "Usage: bench/run-streaming.sh [--rows 8000000] [--warmup-rows 1000000] [--partitions 4] [--runs 1] [--contenders LIST|all]",
            "                              [--latency-windows 20] [--latency-rate 20000] [--recovery-seconds 25] [--child-heap 4g] [--out bench/RESULTS.md|none]",
            "  --rows             events pre-filled into topic 'events' (plus one closing event per partition)",
            "  --warmup-rows      events pre-filled into topic 'warmup', which each contender's JVM reads once first, unmeasured; 0 skips it",
            "  --partitions       partitions of the topics",
            "  --runs             measured jobs over 'events', back to back in each contender's JVM; the best counts",
            "  --contenders       comma-separated, or none; default " + String.join(",", StreamingContender.DEFAULT) + ";",
            "                     all adds " + StreamingContender.ALL.stream().map(StreamingContender::id).filter(id -> !StreamingContender.DEFAULT.contains(id)).toList(),
            "  --latency-windows  10 s windows whose end-to-end latency is measured (Ontul → Iceberg, 1 s checkpoints, live producer); 0 skips it",
            "  --latency-rate     events per second of the live producer (latency and recovery)",
            "  --recovery-seconds the server (own process, Ontul → Iceberg, 10 s checkpoints, live producer) is killed with SIGKILL after this long",
            "                     and restarted: time until the job has caught up, and the table checked; 0 skips it",
            "  --child-heap       -Xmx of each contender's JVM",
            "  --out              file the report section is appended to, or none to only print it");

    StreamingBenchmarkOptions
    {
        contenders = List.copyOf(requireNonNull(contenders, "contenders is null"));
        requireNonNull(childHeap, "childHeap is null");
        requireNonNull(out, "out is null");
        if (rows < 1 || warmupRows < 0 || partitions < 1 || runs < 1 || latencyWindows < 0 || latencyRate < 100 || recoverySeconds < 0) {
            throw new IllegalArgumentException("rows, partitions and runs must be positive, warmup-rows, latency-windows and recovery-seconds not negative, latency-rate at least 100");
        }
    }

    static StreamingBenchmarkOptions parse(String[] args)
    {
        long rows = 8_000_000;
        long warmupRows = 1_000_000;
        int partitions = 4;
        int runs = 1;
        List<StreamingContender> contenders = StreamingContender.DEFAULT.stream().map(id -> StreamingContender.byId(id).orElseThrow()).toList();
        int latencyWindows = 20;
        int latencyRate = 20_000;
        int recoverySeconds = 25;
        String childHeap = "4g";
        Optional<Path> out = Optional.of(Path.of("bench/RESULTS.md"));
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("Missing value for " + option);
            }
            String value = args[++i];
            try {
                switch (option) {
                    case "--rows" -> rows = Long.parseLong(value.replace("_", "").replace(",", ""));
                    case "--warmup-rows" -> warmupRows = Long.parseLong(value.replace("_", "").replace(",", ""));
                    case "--partitions" -> partitions = Integer.parseInt(value);
                    case "--runs" -> runs = Integer.parseInt(value);
                    case "--contenders" -> contenders = value.equals("all") ? StreamingContender.ALL : value.equals("none") ? List.of() : Arrays.stream(value.split(","))
                            .map(String::trim)
                            .map(id -> StreamingContender.byId(id).orElseThrow(() -> new IllegalArgumentException("Unknown contender " + id)))
                            .toList();
                    case "--latency-windows" -> latencyWindows = Integer.parseInt(value);
                    case "--latency-rate" -> latencyRate = Integer.parseInt(value);
                    case "--recovery-seconds" -> recoverySeconds = Integer.parseInt(value);
                    case "--child-heap" -> childHeap = value;
                    case "--out" -> out = value.equals("none") ? Optional.empty() : Optional.of(Path.of(value));
                    default -> throw new IllegalArgumentException("Unknown option " + option);
                }
            }
            catch (NumberFormatException e) {
                throw new IllegalArgumentException("Bad value for " + option + ": " + value);
            }
        }
        return new StreamingBenchmarkOptions(rows, warmupRows, partitions, runs, contenders, latencyWindows, latencyRate, recoverySeconds, childHeap, out);
    }

    boolean needsPostgres()
    {
        return contenders.stream().anyMatch(contender -> contender.sink().equals("postgres"));
    }
}
