package io.ontul.bench.streaming;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.types.Row;

/**
 * The Flink contenders' sink: discards the rows as Flink's {@code blackhole} connector does, but
 * first counts them, sums two of their fields (a text field: its length; none when the name is
 * null) and notes every checkpoint it takes part in, in static counters the child reads after the
 * job (the MiniCluster runs in its JVM). It holds no state: the snapshots are empty.
 */
final class CountingSink
        implements Sink<Row>, SupportsWriterState<Row, Void>
{
    private static final long serialVersionUID = 1;

    private static final LongAdder ROWS = new LongAdder();
    private static final LongAdder COUNT_SUM = new LongAdder();
    private static final DoubleAdder TOTAL_SUM = new DoubleAdder();
    private static final Set<Long> CHECKPOINTS = ConcurrentHashMap.newKeySet();

    private final String countField;
    private final String sumField;

    /**
     * @param countField the field whose values {@link #countSum} adds up, or null
     * @param sumField the field whose values (or lengths) {@link #totalSum} adds up, or null
     */
    CountingSink(String countField, String sumField)
    {
        this.countField = countField;
        this.sumField = sumField;
    }

    static void reset()
    {
        ROWS.reset();
        COUNT_SUM.reset();
        TOTAL_SUM.reset();
        CHECKPOINTS.clear();
    }

    static long rows()
    {
        return ROWS.sum();
    }

    static long countSum()
    {
        return COUNT_SUM.sum();
    }

    static double totalSum()
    {
        return TOTAL_SUM.sum();
    }

    static int checkpoints()
    {
        return CHECKPOINTS.size();
    }

    @Override
    public StatefulSinkWriter<Row, Void> createWriter(WriterInitContext context)
    {
        return new Writer(countField, sumField);
    }

    @Override
    public StatefulSinkWriter<Row, Void> restoreWriter(WriterInitContext context, Collection<Void> recoveredState)
    {
        return new Writer(countField, sumField);
    }

    @Override
    public SimpleVersionedSerializer<Void> getWriterStateSerializer()
    {
        return new SimpleVersionedSerializer<>()
        {
            @Override
            public int getVersion()
            {
                return 1;
            }

            @Override
            public byte[] serialize(Void state)
            {
                return new byte[0];
            }

            @Override
            public Void deserialize(int version, byte[] serialized)
                    throws IOException
            {
                return null;
            }
        };
    }

    private record Writer(String countField, String sumField)
            implements StatefulSinkWriter<Row, Void>
    {
        @Override
        public void write(Row row, Context context)
        {
            ROWS.increment();
            if (countField != null && row.getField(countField) instanceof Number count) {
                COUNT_SUM.add(count.longValue());
            }
            if (sumField != null) {
                Object value = row.getField(sumField);
                if (value instanceof Number number) {
                    TOTAL_SUM.add(number.doubleValue());
                }
                else if (value != null) {
                    TOTAL_SUM.add(value.toString().length());
                }
            }
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public List<Void> snapshotState(long checkpointId)
        {
            CHECKPOINTS.add(checkpointId);
            return List.of();
        }

        @Override
        public void close() {}
    }
}
