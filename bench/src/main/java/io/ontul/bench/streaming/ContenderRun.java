package io.ontul.bench.streaming;

import java.util.Map;

/** One measured run of a contender, as its child JVM reported it. */
record ContenderRun(int run, long recordsIn, long cpuNanos, long wallNanos, long outRows, long countSum, double totalSum, long checkpoints, long late)
{
    static ContenderRun of(Map<String, String> fields)
    {
        return new ContenderRun(
                Integer.parseInt(fields.get("run")),
                Long.parseLong(fields.get("records_in")),
                Long.parseLong(fields.get("cpu_ns")),
                Long.parseLong(fields.get("wall_ns")),
                Long.parseLong(fields.get("out_rows")),
                Long.parseLong(fields.get("cnt_sum")),
                Double.parseDouble(fields.get("total_sum")),
                Long.parseLong(fields.getOrDefault("checkpoints", "-1")),
                Long.parseLong(fields.getOrDefault("late", "0")));
    }

    /** Input records per second of this JVM's CPU time, over {@code records} records. */
    double rowsPerCpuSecond(long records)
    {
        return records / (cpuNanos / 1e9);
    }

    double rowsPerWallSecond(long records)
    {
        return records / (wallNanos / 1e9);
    }
}
