package io.ontul.engine.stream.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.ontul.spi.cluster.ChannelSender;

/**
 * A channel to another node, over a hand-written sender that records what the transport would
 * carry: every element is tagged, the tags decode to the same elements in the same order, rows
 * keep their values, the end of input completes the stream, and the channel is opened only when
 * first used.
 */
class TestRemoteChannel
{
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).as("every batch freed").isZero();
        allocator.close();
    }

    @Test
    void elementsCrossInOrderAndDecodeToThemselves()
            throws Exception
    {
        RecordingSender sender = new RecordingSender();
        int[] opened = {0};
        RemoteChannel channel = new RemoteChannel(() -> {
            opened[0]++;
            return sender;
        });
        assertThat(opened[0]).as("not connected before first use").isZero();
        channel.put(2, new ChannelElement.Watermark(1_000));
        channel.put(2, new ChannelElement.Records(batch(7, 8, 9)));
        channel.put(2, new ChannelElement.Barrier(42));
        channel.put(2, new ChannelElement.Idle());
        channel.put(2, new ChannelElement.EndOfInput());
        assertThat(opened[0]).isEqualTo(1);
        assertThat(sender.completed).isTrue();

        List<ChannelElement> decoded = new ArrayList<>();
        for (Message message : sender.messages) {
            decoded.add(ChannelCodec.element(message.tag, () -> message.rows));
        }
        assertThat(decoded).hasSize(5);
        assertThat(decoded.get(0)).isEqualTo(new ChannelElement.Watermark(1_000));
        assertThat(((ChannelElement.Records) decoded.get(1)).batch().getVector(0).getObject(2)).isEqualTo(9L);
        assertThat(decoded.get(2)).isEqualTo(new ChannelElement.Barrier(42));
        assertThat(decoded.get(3)).isInstanceOf(ChannelElement.Idle.class);
        assertThat(ChannelCodec.ends(decoded.get(4))).isTrue();
        decoded.forEach(ChannelElement::release);

        assertThatThrownBy(() -> channel.put(2, new ChannelElement.Barrier(43))).hasMessageContaining("already ended");
        channel.close();
        assertThat(sender.closed).as("a completed channel is not cancelled").isFalse();
    }

    @Test
    void closingCancelsAnOpenChannelAndRefusesMore()
            throws Exception
    {
        RecordingSender sender = new RecordingSender();
        RemoteChannel channel = new RemoteChannel(() -> sender);
        channel.put(0, new ChannelElement.Barrier(1));
        channel.close();
        assertThat(sender.closed).isTrue();
        VectorSchemaRoot rows = batch(1);
        assertThatThrownBy(() -> channel.put(0, new ChannelElement.Records(rows))).hasMessageContaining("closed");
        assertThat(rows.getVector(0).getValueCount()).as("the refused rows were released").isZero();
    }

    @Test
    void malformedTagsAreRefused()
    {
        assertThatThrownBy(() -> ChannelCodec.element(new byte[] {1, 2}, () -> null)).hasMessageContaining("a tag of 2 bytes");
        byte[] unknown = new byte[9];
        unknown[0] = 9;
        assertThatThrownBy(() -> ChannelCodec.element(unknown, () -> null)).hasMessageContaining("unknown kind 9");
        assertThatThrownBy(() -> ChannelCodec.element(new byte[9], () -> null)).hasMessageContaining("rows tagged without a batch");
    }

    private VectorSchemaRoot batch(long... values)
    {
        BigIntVector vector = new BigIntVector("v", allocator);
        vector.allocateNew(values.length);
        for (int i = 0; i < values.length; i++) {
            vector.set(i, values[i]);
        }
        vector.setValueCount(values.length);
        return new VectorSchemaRoot(List.of(vector));
    }

    private record Message(byte[] tag, VectorSchemaRoot rows) {}

    /** What a transport carries: the rows moved out of the sent batch (as Flight takes its buffers), with their tags. */
    private final class RecordingSender
            implements ChannelSender
    {
        private final List<Message> messages = new ArrayList<>();
        private boolean completed;
        private boolean closed;

        @Override
        public long send(VectorSchemaRoot batch, byte[] metadata)
        {
            messages.add(new Message(metadata, io.ontul.engine.operator.Batches.transfer(batch, allocator)));
            return 0;
        }

        @Override
        public long sendMetadata(byte[] metadata)
        {
            messages.add(new Message(metadata, null));
            return 0;
        }

        @Override
        public void complete()
        {
            completed = true;
        }

        @Override
        public void close()
        {
            closed = true;
        }
    }
}
