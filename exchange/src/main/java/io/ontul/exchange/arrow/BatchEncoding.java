package io.ontul.exchange.arrow;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How batches are laid out in an exchange stream.
 * <ul>
 * <li>{@link #ARROW_IPC}: the Arrow IPC stream format, schema included; any Arrow type. Durable
 * files (checkpoints) use it, so that other tools and versions can read them.</li>
 * <li>{@link #PACKED}: Ontul's own {@link PackedBatchWriter} format for spill runs, which are
 * read back only by the process that wrote them: integers, dates, times and decimals narrowed to
 * the bytes their values need, no schema (the reader is given it). Only for flat schemas of the
 * types {@link PackedColumn} lists.</li>
 * </ul>
 */
public enum BatchEncoding
{
    ARROW_IPC,
    PACKED;

    /** {@link #PACKED} when every column of {@code schema} can be packed, else {@link #ARROW_IPC}. */
    public static BatchEncoding forSpill(Schema schema)
    {
        return PackedColumn.supports(schema) ? PACKED : ARROW_IPC;
    }

    public BatchStreamWriter newWriter(OutputStream out, Schema schema)
            throws IOException
    {
        return switch (this) {
            case ARROW_IPC -> new ArrowBatchWriter(out, schema);
            case PACKED -> new PackedBatchWriter(out, schema);
        };
    }

    /** @param schema the schema the stream was written with (an IPC stream carries its own) */
    public BatchStreamReader newReader(InputStream in, Schema schema, BufferAllocator allocator)
            throws IOException
    {
        return switch (this) {
            case ARROW_IPC -> new ArrowBatchReader(in, allocator);
            case PACKED -> new PackedBatchReader(in, schema, allocator);
        };
    }
}
