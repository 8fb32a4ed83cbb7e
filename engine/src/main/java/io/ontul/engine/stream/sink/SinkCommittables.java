package io.ontul.engine.stream.sink;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The committable a task records for a checkpoint when it writes two sinks (the job's table and
 * its rejects table): both, each with its length. A job writing one sink records that sink's
 * committable as it is, so its checkpoints read the same as without this class.
 */
public final class SinkCommittables
{
    private SinkCommittables() {}

    public static byte[] combine(byte[] sink, byte[] rejects)
    {
        return ByteBuffer.allocate(8 + sink.length + rejects.length)
                .putInt(sink.length).put(sink)
                .putInt(rejects.length).put(rejects)
                .array();
    }

    /** The sink's committables ({@code part} 0) or the rejects table's (1) of combined ones. */
    public static List<byte[]> part(List<byte[]> combined, int part)
    {
        List<byte[]> parts = new ArrayList<>();
        for (byte[] bytes : combined) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            byte[] sink = new byte[buffer.getInt()];
            buffer.get(sink);
            byte[] rejects = new byte[buffer.getInt()];
            buffer.get(rejects);
            parts.add(part == 0 ? sink : rejects);
        }
        return parts;
    }
}
