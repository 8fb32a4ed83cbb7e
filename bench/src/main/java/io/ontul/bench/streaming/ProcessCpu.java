package io.ontul.bench.streaming;

import java.lang.management.ManagementFactory;

/** CPU time of this JVM process, all threads (JIT and GC included), in nanoseconds. */
final class ProcessCpu
{
    private ProcessCpu() {}

    static long nanos()
    {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
