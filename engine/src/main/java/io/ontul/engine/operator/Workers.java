package io.ontul.engine.operator;

import java.util.List;
import java.util.concurrent.Future;

import io.ontul.engine.operator.exchange.GatherOperator;
import io.ontul.engine.operator.exchange.LocalHashExchange;

/** What operators that run pipelines on worker threads ({@link GatherOperator}, {@link LocalHashExchange}) share. */
public final class Workers
{
    private Workers() {}

    /**
     * Waits until every task has ended, so that none allocates a buffer after the query's
     * allocator closes. An interrupted caller (a cancelled RPC) still waits, or it would free
     * memory in use; its interrupt flag is set again afterwards. Failures are not reported here:
     * each task records its own.
     */
    public static void awaitAll(List<Future<?>> tasks)
    {
        boolean interrupted = false;
        for (Future<?> task : tasks) {
            while (true) {
                try {
                    task.get();
                    break;
                }
                catch (InterruptedException e) {
                    interrupted = true;
                }
                catch (Exception ignored) {
                    // recorded by the task itself
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A worker's failure, to rethrow on the consuming thread: unchecked as it was, else wrapped. */
    public static RuntimeException propagate(Throwable error)
    {
        if (error instanceof RuntimeException runtime) {
            return runtime;
        }
        if (error instanceof Error fatal) {
            throw fatal;
        }
        return new RuntimeException(error);
    }
}
