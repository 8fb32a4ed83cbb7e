package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One contender of {@link StreamingBenchmark}: which child JVM runs it and with what sink and
 * checkpoint interval. "off" means no periodic checkpoint: for Ontul an interval of 1 h (longer
 * than any run, so only STOP STREAMING JOB's final checkpoint commits), for Flink checkpointing
 * disabled.
 */
record StreamingContender(String id, String description, boolean flink, String sink, String interval, int parallelism)
{
    static final String OFF = "off";
    static final String ONTUL_OFF_INTERVAL = "1h";

    static final List<StreamingContender> ALL = List.of(
            ontul("ontul-iceberg-10s", "Ontul → Iceberg, checkpoints every 10 s", "iceberg", "10s"),
            ontul("ontul-iceberg-10s-p2", "Ontul → Iceberg, parallelism 2, checkpoints every 10 s", "iceberg", "10s", 2),
            ontul("ontul-iceberg-off", "Ontul → Iceberg, checkpoints off (1h: only STOP's final commit)", "iceberg", OFF),
            ontul("ontul-postgres-10s", "Ontul → PostgreSQL, checkpoints every 10 s", "postgres", "10s"),
            ontul("ontul-postgres-off", "Ontul → PostgreSQL, checkpoints off (1h: only STOP's final commit)", "postgres", OFF),
            flink("flink-p1-10s", 1, "10s"),
            flink("flink-p2-10s", 2, "10s"),
            flink("flink-p1-off", 1, OFF),
            flink("flink-p2-off", 2, OFF));
    /** Run when {@code --contenders} is not given: the four Ontul cases and Flink with checkpoints at parallelism 1 and 2. */
    static final List<String> DEFAULT = List.of("ontul-iceberg-10s", "ontul-iceberg-off", "ontul-postgres-10s", "ontul-postgres-off", "flink-p1-10s", "flink-p2-10s");

    StreamingContender
    {
        requireNonNull(id, "id is null");
        requireNonNull(description, "description is null");
        requireNonNull(sink, "sink is null");
        requireNonNull(interval, "interval is null");
    }

    static Optional<StreamingContender> byId(String id)
    {
        return ALL.stream().filter(contender -> contender.id().equals(id)).findFirst();
    }

    String mainClass()
    {
        // by name: loading the Flink class in a JVM without Flink's jars is best avoided
        return StreamingContender.class.getPackageName() + (flink ? ".FlinkStreamingJobRun" : ".OntulStreamingJobRun");
    }

    /** The interval the child is given: Ontul's "off" is a long interval, Flink's turns checkpointing off. */
    String childInterval()
    {
        return !flink && interval.equals(OFF) ? ONTUL_OFF_INTERVAL : interval;
    }

    private static StreamingContender ontul(String id, String description, String sink, String interval)
    {
        return ontul(id, description, sink, interval, 1);
    }

    private static StreamingContender ontul(String id, String description, String sink, String interval, int parallelism)
    {
        return new StreamingContender(id, description, false, sink, interval, parallelism);
    }

    private static StreamingContender flink(String id, int parallelism, String interval)
    {
        String checkpoints = interval.equals(OFF) ? "checkpoints off" : "exactly-once checkpoints every 10 s";
        return new StreamingContender(id, "Flink 2.2.1 MiniCluster, parallelism " + parallelism + ", " + checkpoints + " → counting discard sink", true, "discard", interval, parallelism);
    }
}
