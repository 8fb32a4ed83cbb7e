package io.ontul.engine.operator.exchange;

import java.util.function.Supplier;

import io.ontul.engine.operator.Operator;
import io.ontul.spi.cluster.RemoteStream;
import io.ontul.engine.operator.OperatorContext;

/**
 * Where an exchange takes its input when the pipeline below it runs on other nodes: one stream
 * per node. A consumer with {@code instances} producer threads reads, in producer thread
 * {@code instance}, the streams {@code instance}, {@code instance + instances}, ...
 */
public interface RemoteSource
{
    /** How many streams (nodes) there are. */
    int streams();

    /** Opens stream {@code index} (the request goes out when it is opened). */
    RemoteStream open(int index);

    /**
     * The same pipeline with its rows written by each node into {@code write}'s table: each
     * stream then carries one row, what that node's writer finished (see
     * {@link io.ontul.engine.operator.write.TableWriteOperator}). Empty when some node cannot
     * (it lacks the table's catalog).
     */
    default java.util.Optional<RemoteSource> writing(io.ontul.spi.cluster.FragmentWrite write)
    {
        return java.util.Optional.empty();
    }

    /** Whether every consumer reads all of every stream (a broadcast), rather than the coordinator alone. */
    default boolean broadcast()
    {
        return false;
    }

    /** For EXPLAIN: e.g. {@code fragment 1 on 2 workers}. */
    String describe();

    /** For EXPLAIN ANALYZE: each node's figures for the fragment's operators (top down), by node id; asked after the query ran. */
    java.util.Map<String, java.util.List<io.ontul.spi.cluster.OperatorFigures>> statistics();

    /** The producer for thread {@code instance} of {@code instances}: the streams that fall to it, read one after another. */
    default Operator producer(OperatorContext context, int instance, int instances)
    {
        java.util.List<Supplier<RemoteStream>> mine = new java.util.ArrayList<>();
        for (int index = instance; index < streams(); index += instances) {
            int stream = index;
            mine.add(() -> open(stream));
        }
        return new RemoteSourceOperator(context, mine);
    }
}
