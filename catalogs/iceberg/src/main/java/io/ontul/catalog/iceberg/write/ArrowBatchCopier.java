package io.ontul.catalog.iceberg.write;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * Copies a batch buffer by buffer into another allocator, so that the sink can keep it after
 * {@code append} returns while the engine reuses the original.
 */
final class ArrowBatchCopier
{
    private ArrowBatchCopier() {}

    static VectorSchemaRoot copy(VectorSchemaRoot source, BufferAllocator allocator)
    {
        List<ArrowBuf> copies = new ArrayList<>();
        VectorSchemaRoot target = VectorSchemaRoot.create(source.getSchema(), allocator);
        try (ArrowRecordBatch shared = new VectorUnloader(source).getRecordBatch()) {
            for (ArrowBuf buffer : shared.getBuffers()) {
                long length = buffer.readableBytes();
                ArrowBuf copy = allocator.buffer(length);
                copies.add(copy);
                copy.setBytes(0, buffer, buffer.readerIndex(), length);
                copy.writerIndex(length);
            }
            try (ArrowRecordBatch copied = new ArrowRecordBatch(shared.getLength(), shared.getNodes(), copies)) {
                new VectorLoader(target).load(copied);
            }
            return target;
        }
        catch (RuntimeException | Error e) {
            target.close();
            throw e;
        }
        finally {
            // the loaded vectors hold their own references
            copies.forEach(ArrowBuf::close);
        }
    }
}
