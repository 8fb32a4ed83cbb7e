package io.ontul.exchange.checkpoint;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ontul.exchange.crypto.ExchangeFileException;

/**
 * The content of checkpoint files, inside the exchange file format (so encrypted and compressed
 * as configured). Integers are big-endian; a string is its UTF-8 length (i32) and bytes; a map
 * is its size (i32) and then key, value for each entry in key order.
 *
 * <pre>
 * state stream:         "OCKS" | version i32 | job | checkpoint id i64 | task | stream | Arrow IPC stream
 * task metadata:        "OCKT" | version i32 | job | checkpoint id i64 | task record
 * checkpoint metadata:  "OCKP" | version i32 | job | checkpoint id i64 | completed at (epoch ms) i64
 *                       | metadata map | task count i32 | task record ...
 * task record:          task | stream count i32 | (stream name | batches i64 | rows i64) ... | metadata map
 * </pre>
 *
 * Every file names what it belongs to, and readers check it against where they found the file:
 * a file moved or copied to another checkpoint, task or stream (which the exchange format's
 * authentication cannot see) is refused.
 */
final class CheckpointFileFormat
{
    static final int VERSION = 1;

    private static final int STATE_STREAM_MAGIC = magic("OCKS");
    private static final int TASK_MAGIC = magic("OCKT");
    private static final int CHECKPOINT_MAGIC = magic("OCKP");
    private static final int MAXIMUM_STRING_BYTES = 64 << 20;

    private CheckpointFileFormat() {}

    static void writeStateStreamHeader(OutputStream stream, String job, long checkpointId, String taskId, String streamName)
            throws IOException
    {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeInt(STATE_STREAM_MAGIC);
        out.writeInt(VERSION);
        writeString(out, job);
        out.writeLong(checkpointId);
        writeString(out, taskId);
        writeString(out, streamName);
    }

    static void readStateStreamHeader(InputStream stream, String fileName, String job, long checkpointId, String taskId, String streamName)
            throws IOException
    {
        DataInputStream in = new DataInputStream(stream);
        try {
            readMagic(in, fileName, STATE_STREAM_MAGIC, "a checkpoint state stream");
            String actual = describe(readString(in, fileName), in.readLong(), readString(in, fileName), readString(in, fileName));
            String expected = describe(job, checkpointId, taskId, streamName);
            if (!actual.equals(expected)) {
                throw new ExchangeFileException(fileName, fileName + ": holds " + actual + ", not " + expected + " (the file was moved or replaced)");
            }
        }
        catch (EOFException e) {
            throw endsEarly(fileName, e);
        }
    }

    static void writeTask(OutputStream stream, String job, long checkpointId, TaskRecord task)
            throws IOException
    {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeInt(TASK_MAGIC);
        out.writeInt(VERSION);
        writeString(out, job);
        out.writeLong(checkpointId);
        writeTaskRecord(out, task);
    }

    static TaskRecord readTask(InputStream stream, String fileName, String job, long checkpointId, String taskId)
            throws IOException
    {
        DataInputStream in = new DataInputStream(stream);
        try {
            readMagic(in, fileName, TASK_MAGIC, "a checkpoint task metadata file");
            String actualJob = readString(in, fileName);
            long actualCheckpointId = in.readLong();
            TaskRecord task = readTaskRecord(in, fileName);
            String actual = describe(actualJob, actualCheckpointId, task.taskId());
            String expected = describe(job, checkpointId, taskId);
            if (!actual.equals(expected)) {
                throw new ExchangeFileException(fileName, fileName + ": holds the metadata of " + actual + ", not of " + expected + " (the file was moved or replaced)");
            }
            expectEnd(in, fileName);
            return task;
        }
        catch (EOFException e) {
            throw endsEarly(fileName, e);
        }
    }

    static void writeCheckpoint(OutputStream stream, CheckpointRecord checkpoint)
            throws IOException
    {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeInt(CHECKPOINT_MAGIC);
        out.writeInt(VERSION);
        writeString(out, checkpoint.job());
        out.writeLong(checkpoint.checkpointId());
        out.writeLong(checkpoint.completedAt().toEpochMilli());
        writeMap(out, checkpoint.metadata());
        out.writeInt(checkpoint.tasks().size());
        for (TaskRecord task : checkpoint.tasks()) {
            writeTaskRecord(out, task);
        }
    }

    static CheckpointRecord readCheckpoint(InputStream stream, String fileName, String job, long checkpointId)
            throws IOException
    {
        DataInputStream in = new DataInputStream(stream);
        try {
            readMagic(in, fileName, CHECKPOINT_MAGIC, "a checkpoint metadata file");
            String actual = describe(readString(in, fileName), in.readLong());
            String expected = describe(job, checkpointId);
            if (!actual.equals(expected)) {
                throw new ExchangeFileException(fileName, fileName + ": holds the metadata of " + actual + ", not of " + expected + " (the file was moved or replaced)");
            }
            Instant completedAt = Instant.ofEpochMilli(in.readLong());
            Map<String, String> metadata = readMap(in, fileName);
            int taskCount = readCount(in, fileName);
            List<TaskRecord> tasks = new ArrayList<>(Math.min(taskCount, 1024));
            for (int i = 0; i < taskCount; i++) {
                tasks.add(readTaskRecord(in, fileName));
            }
            expectEnd(in, fileName);
            return new CheckpointRecord(job, checkpointId, completedAt, metadata, tasks);
        }
        catch (EOFException e) {
            throw endsEarly(fileName, e);
        }
    }

    /**
     * Reads on to the end of the file: only there does the exchange stream check that its last
     * chunk was present, and nothing may follow the content.
     */
    static void expectEnd(InputStream in, String fileName)
            throws IOException
    {
        if (in.read() != -1) {
            throw new ExchangeFileException(fileName, fileName + ": unexpected data after the end of its content");
        }
    }

    private static void writeTaskRecord(DataOutputStream out, TaskRecord task)
            throws IOException
    {
        writeString(out, task.taskId());
        out.writeInt(task.streams().size());
        for (StateStreamSummary summary : task.streams()) {
            writeString(out, summary.name());
            out.writeLong(summary.batches());
            out.writeLong(summary.rows());
        }
        writeMap(out, task.metadata());
    }

    private static TaskRecord readTaskRecord(DataInputStream in, String fileName)
            throws IOException
    {
        String taskId = readString(in, fileName);
        int streamCount = readCount(in, fileName);
        List<StateStreamSummary> streams = new ArrayList<>(Math.min(streamCount, 1024));
        for (int i = 0; i < streamCount; i++) {
            String name = readString(in, fileName);
            long batches = in.readLong();
            long rows = in.readLong();
            if (batches < 0 || rows < 0) {
                throw new ExchangeFileException(fileName, fileName + ": state stream " + name + " has a negative size");
            }
            streams.add(new StateStreamSummary(name, batches, rows));
        }
        return new TaskRecord(taskId, streams, readMap(in, fileName));
    }

    private static void writeMap(DataOutputStream out, Map<String, String> map)
            throws IOException
    {
        Map<String, String> sorted = new TreeMap<>(map);
        out.writeInt(sorted.size());
        for (Map.Entry<String, String> entry : sorted.entrySet()) {
            writeString(out, entry.getKey());
            writeString(out, entry.getValue());
        }
    }

    private static Map<String, String> readMap(DataInputStream in, String fileName)
            throws IOException
    {
        int size = readCount(in, fileName);
        Map<String, String> map = new TreeMap<>();
        for (int i = 0; i < size; i++) {
            String key = readString(in, fileName);
            map.put(key, readString(in, fileName));
        }
        return map;
    }

    private static void writeString(DataOutputStream out, String value)
            throws IOException
    {
        byte[] bytes = value.getBytes(UTF_8);
        if (bytes.length > MAXIMUM_STRING_BYTES) {
            throw new IllegalArgumentException("checkpoint metadata string of " + bytes.length + " bytes is longer than " + MAXIMUM_STRING_BYTES + " bytes: use a state stream");
        }
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputStream in, String fileName)
            throws IOException
    {
        int length = in.readInt();
        if (length < 0 || length > MAXIMUM_STRING_BYTES) {
            throw new ExchangeFileException(fileName, fileName + ": invalid string length " + length);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, UTF_8);
    }

    private static int readCount(DataInputStream in, String fileName)
            throws IOException
    {
        int count = in.readInt();
        if (count < 0) {
            throw new ExchangeFileException(fileName, fileName + ": invalid entry count " + count);
        }
        return count;
    }

    private static void readMagic(DataInputStream in, String fileName, int magic, String kind)
            throws IOException
    {
        int actualMagic = in.readInt();
        if (actualMagic != magic) {
            throw new ExchangeFileException(fileName, fileName + ": is not " + kind);
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new ExchangeFileException(fileName, fileName + ": unsupported checkpoint file version " + version + " (this server reads version " + VERSION + ")");
        }
    }

    private static ExchangeFileException endsEarly(String fileName, EOFException cause)
    {
        return new ExchangeFileException(fileName, fileName + ": ends before its content is complete", cause);
    }

    private static String describe(String job, long checkpointId)
    {
        return "checkpoint " + checkpointId + " of job " + job;
    }

    private static String describe(String job, long checkpointId, String taskId)
    {
        return "task " + taskId + " of " + describe(job, checkpointId);
    }

    private static String describe(String job, long checkpointId, String taskId, String streamName)
    {
        return "state stream " + streamName + " of " + describe(job, checkpointId, taskId);
    }

    private static int magic(String text)
    {
        byte[] bytes = text.getBytes(UTF_8);
        return (bytes[0] & 0xFF) << 24 | (bytes[1] & 0xFF) << 16 | (bytes[2] & 0xFF) << 8 | (bytes[3] & 0xFF);
    }
}
