package io.ontul.exchange.arrow;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.exchange.crypto.ChunkedOutputStream;

/**
 * Writes batches of one schema in the Arrow IPC stream format to an exchange stream: the schema
 * at construction, each batch as written (its buffers are serialized, not copied or taken: the
 * caller keeps its batch), and the end-of-stream marker on {@link #finish}. Closing the
 * underlying stream is the caller's. Spill runs and checkpoint state streams both use it, and
 * read back with {@link ArrowBatchReader}. Not thread-safe.
 */
public final class ArrowBatchWriter
        implements BatchStreamWriter
{
    private final WriteChannel channel;
    // told each batch's size, so that its buffers are not grown step by step; null for other streams
    private final ChunkedOutputStream exchangeStream;

    public ArrowBatchWriter(OutputStream out, Schema schema)
            throws IOException
    {
        requireNonNull(out, "out is null");
        // an exchange stream takes the batches' buffers as they are; any other stream through a copying adapter
        this.channel = new WriteChannel(out instanceof WritableByteChannel direct ? direct : Channels.newChannel(out));
        this.exchangeStream = out instanceof ChunkedOutputStream chunked ? chunked : null;
        MessageSerializer.serialize(channel, requireNonNull(schema, "schema is null"));
    }

    @Override
    public void write(VectorSchemaRoot batch)
            throws IOException
    {
        try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
            if (exchangeStream != null) {
                // the message's metadata: a few hundred bytes, plus a few dozen per buffer and column
                exchangeStream.expect(record.computeBodyLength() + 512 + 48L * (record.getBuffers().size() + record.getNodes().size()));
            }
            MessageSerializer.serialize(channel, record);
        }
    }

    @Override
    public void finish()
            throws IOException
    {
        ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
    }
}
