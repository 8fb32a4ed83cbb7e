package io.ontul.catalog.kafka.decoder;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.ontul.catalog.kafka.KafkaFormat;
import io.ontul.catalog.kafka.KafkaHiddenColumns;
import io.ontul.catalog.kafka.KafkaTableDefinition;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Builds Arrow batches of chosen columns of a Kafka table (declared and hidden ones, in any order)
 * from records, one record at a time. Used by the SELECT reader and by streaming jobs.
 * <p>
 * Call {@link #add} per record until {@link #isFull()} or the input ends, then {@link #build()}
 * to take the batch (the caller owns it); the next {@code add} starts a new batch. Not
 * thread-safe. {@link #close()} releases a batch not taken.
 */
public final class KafkaBatchBuilder
        implements AutoCloseable
{
    /** Rows per batch at most. */
    public static final int MAX_ROWS = 64 * 1024;
    /** Record bytes per batch after which a batch counts as full, whatever its row count. */
    public static final long MAX_BYTES = 16L * 1024 * 1024;

    private final Schema schema;
    private final RowDecoder decoder;
    private final int[] declaredOutputs;
    private final int partitionOutput;
    private final int offsetOutput;
    private final int timestampOutput;
    private final BufferAllocator allocator;
    private final FieldVector[] decoderVectors;

    private VectorSchemaRoot batch;
    private int rows;
    private long bytes;

    /**
     * @param columns names of declared or hidden columns, in the order the batches hold them
     * @throws OntulException NOT_FOUND for a column the table does not have
     */
    public KafkaBatchBuilder(KafkaTableDefinition table, String qualifiedName, List<String> columns, BufferAllocator allocator)
    {
        requireNonNull(table, "table is null");
        requireNonNull(qualifiedName, "qualifiedName is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.decoder = createDecoder(table);
        List<Field> declared = decoder.columns();
        this.declaredOutputs = new int[declared.size()];
        Arrays.fill(declaredOutputs, -1);
        this.decoderVectors = new FieldVector[declared.size()];
        List<Field> fields = new ArrayList<>(columns.size());
        int partition = -1;
        int offset = -1;
        int timestamp = -1;
        List<Field> all = table.schema().getFields();
        for (int output = 0; output < columns.size(); output++) {
            String name = columns.get(output);
            int index = indexOf(all, name);
            if (index < 0) {
                throw OntulException.userError(ErrorCode.NOT_FOUND, "Column '%s' does not exist in table '%s'", name, qualifiedName);
            }
            fields.add(all.get(index));
            switch (name) {
                case KafkaHiddenColumns.PARTITION -> partition = output;
                case KafkaHiddenColumns.OFFSET -> offset = output;
                case KafkaHiddenColumns.TIMESTAMP -> timestamp = output;
                default -> {
                    if (declaredOutputs[index] >= 0) {
                        throw new IllegalArgumentException("Column selected twice: " + name);
                    }
                    declaredOutputs[index] = output;
                }
            }
        }
        this.schema = new Schema(fields);
        this.partitionOutput = partition;
        this.offsetOutput = offset;
        this.timestampOutput = timestamp;
    }

    /** The decoder of a table's format. */
    public static RowDecoder createDecoder(KafkaTableDefinition table)
    {
        return table.format() == KafkaFormat.RAW ? new RawRowDecoder() : new JsonRowDecoder(table.columns(), table.keyColumn());
    }

    /** The schema of the batches. */
    public Schema schema()
    {
        return schema;
    }

    public void add(ConsumerRecord<byte[], byte[]> record)
            throws MalformedRecordException
    {
        add(record.key(), record.value(), record.partition(), record.offset(), record.timestamp());
    }

    /**
     * Decodes a record into the next row. A malformed record adds no row.
     *
     * @param timestamp epoch milliseconds, negative for none
     */
    public void add(byte[] key, byte[] value, int partition, long offset, long timestamp)
            throws MalformedRecordException
    {
        if (batch == null) {
            start();
        }
        decoder.decode(key, value, decoderVectors, rows);
        if (partitionOutput >= 0) {
            ((IntVector) batch.getVector(partitionOutput)).setSafe(rows, partition);
        }
        if (offsetOutput >= 0) {
            ((BigIntVector) batch.getVector(offsetOutput)).setSafe(rows, offset);
        }
        if (timestampOutput >= 0) {
            TimeStampMilliVector vector = (TimeStampMilliVector) batch.getVector(timestampOutput);
            if (timestamp < 0) {
                vector.setNull(rows);
            }
            else {
                vector.setSafe(rows, timestamp);
            }
        }
        rows++;
        bytes += (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
    }

    public int rowCount()
    {
        return rows;
    }

    public boolean isFull()
    {
        return rows >= MAX_ROWS || bytes >= MAX_BYTES;
    }

    /** The rows added since the last build (possibly none), as a batch the caller owns. */
    public VectorSchemaRoot build()
    {
        if (batch == null) {
            start();
        }
        VectorSchemaRoot result = batch;
        for (FieldVector vector : result.getFieldVectors()) {
            vector.setValueCount(rows);
        }
        result.setRowCount(rows);
        batch = null;
        rows = 0;
        bytes = 0;
        return result;
    }

    private void start()
    {
        if (schema.getFields().isEmpty()) {
            batch = new VectorSchemaRoot(List.of(), List.of(), 0);
        }
        else {
            batch = VectorSchemaRoot.create(schema, allocator);
            batch.allocateNew();
        }
        for (int column = 0; column < declaredOutputs.length; column++) {
            decoderVectors[column] = declaredOutputs[column] < 0 ? null : batch.getVector(declaredOutputs[column]);
        }
    }

    @Override
    public void close()
    {
        if (batch != null) {
            batch.close();
            batch = null;
        }
    }

    private static int indexOf(List<Field> fields, String name)
    {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
