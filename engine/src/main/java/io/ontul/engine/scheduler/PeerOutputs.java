package io.ontul.engine.scheduler;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.cluster.FragmentRequest;

/**
 * A worker's side of the exchanges between workers: its share of a nested fragment, computed once
 * and read by every consumer (each worker of the parent fragment, itself included), either in
 * full (a broadcast: a join's build side) or each consumer the rows of its own keys (a
 * repartition: the input of a final aggregation). The first consumer's request starts the share;
 * the consumers then pull it batch by batch, the fastest one driving it. A broadcast batch is
 * freed once every consumer has read it; a repartitioned batch is split as it comes and each
 * part handed to its consumer. The share stops when every consumer has closed its stream
 * (finished, or cancelled with its query), or when no consumer has read for {@link #IDLE} (one
 * never came: its query failed elsewhere first). What waits to be read is held in this worker's
 * own allocator, outside the share's query (whose memory is freed when it ends).
 */
public final class PeerOutputs
{
    static final Duration IDLE = Duration.ofSeconds(60);
    /** Which worker gets a key: a hash unlike the one its own instances split their rows by. */
    private static final long WORKER_PARTITION_SEED = 0x3C0F_FEE5L;
    private static final Logger LOG = LoggerFactory.getLogger(PeerOutputs.class);

    private final Map<String, Output> outputs = new ConcurrentHashMap<>();
    private final org.apache.arrow.memory.BufferAllocator allocator;

    /**
     * @param allocator where the buffered batches are kept: they outlive the share's query, whose
     *        memory is freed when it ends, until every consumer has sent them on
     */
    public PeerOutputs(org.apache.arrow.memory.BufferAllocator allocator)
    {
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** A stream of batches: a fragment's output, or one consumer's reading of it. Each batch is valid until the next call. */
    public interface Stream
            extends AutoCloseable
    {
        Schema schema();

        /** The next batch, or null at the end. */
        VectorSchemaRoot next();

        /**
         * Bytes the share's computation received from other nodes (known at its end); a
         * consumer's stream reports them to one consumer only, so that they count once.
         */
        default long exchangedBytes()
        {
            return 0;
        }

        @Override
        void close();
    }

    /**
     * Consumer {@code request.consumer()}'s stream of this worker's share of fragment
     * {@code request.fragment()}, which {@code run} starts if no consumer has yet.
     */
    public Stream read(FragmentRequest request, Supplier<Stream> run)
    {
        if (request.consumer() < 0 || request.consumer() >= request.workers()) {
            throw new IllegalArgumentException("consumer " + request.consumer() + " of " + request.workers());
        }
        reapIdle();
        String key = request.queryId() + ".a" + request.attempt() + ".f" + request.fragment();
        Output output;
        synchronized (outputs) {
            output = outputs.get(key);
            if (output == null) {
                output = new Output(key, request.workers(), request.partitionKeys().stream().mapToInt(Integer::intValue).toArray(), run.get());
                outputs.put(key, output);
            }
        }
        return output.reader(request.consumer());
    }

    /** Stops every share and frees the memory of the outputs. */
    public void close()
    {
        List.copyOf(outputs.values()).forEach(Output::abandon);
        try {
            allocator.close();
        }
        catch (RuntimeException e) {
            LOG.warn("Peer outputs still hold memory at shutdown: {}", e.getMessage());
        }
    }

    /** Shares being read now. */
    public int size()
    {
        return outputs.size();
    }

    /** Stops the shares no consumer has read for {@link #IDLE}; called with every request and periodically. */
    public void reapIdle()
    {
        long now = System.nanoTime();
        for (Output output : List.copyOf(outputs.values())) {
            if (output.idleSince(now) > IDLE.toNanos()) {
                LOG.warn("Output {} was not read for {}; stopping it (a consumer never came)", output.key, IDLE);
                try {
                    output.abandon();
                }
                catch (RuntimeException e) {
                    LOG.warn("Stopping output {} failed", output.key, e);
                }
            }
        }
    }

    /** One share and its consumers' places in it. */
    private final class Output
    {
        private final String key;
        private final Stream source;
        /** For a repartition: the key columns; empty for a broadcast. */
        private final int[] partitionKeys;
        /** For a broadcast: batches not yet read by every consumer; index {@code first + i} is {@code buffered.get(i)}. */
        private final List<VectorSchemaRoot> buffered = new ArrayList<>();
        /** For a repartition: each consumer's rows not yet read. */
        private final List<java.util.ArrayDeque<VectorSchemaRoot>> partitions = new ArrayList<>();
        private final int[] cursors;
        private final boolean[] done;
        private int first;
        private boolean ended;
        private boolean closed;
        private RuntimeException failure;
        private volatile long lastRead = System.nanoTime();
        /** Consumers in {@link #next} now (waiting for the share's next batch counts as reading). */
        private final java.util.concurrent.atomic.AtomicInteger reading = new java.util.concurrent.atomic.AtomicInteger();

        Output(String key, int consumers, int[] partitionKeys, Stream source)
        {
            this.key = key;
            this.source = requireNonNull(source, "source is null");
            this.partitionKeys = partitionKeys.clone();
            this.cursors = new int[consumers];
            this.done = new boolean[consumers];
            if (partitionKeys.length > 0) {
                for (int consumer = 0; consumer < consumers; consumer++) {
                    partitions.add(new java.util.ArrayDeque<>());
                }
            }
        }

        private boolean partitioned()
        {
            return partitionKeys.length > 0;
        }

        /** Nanoseconds since a consumer last read, 0 while one reads. */
        long idleSince(long now)
        {
            return reading.get() > 0 ? 0 : now - lastRead;
        }

        Stream reader(int consumer)
        {
            synchronized (this) {
                if (done[consumer] || closed) {
                    throw new OntulException(ErrorCode.INTERNAL_ERROR, "Output " + key + " was already read by consumer " + consumer);
                }
            }
            return new Reader(consumer);
        }

        /** The next batch for {@code consumer} (a slice it owns), or null at the end. */
        VectorSchemaRoot next(int consumer)
        {
            reading.incrementAndGet();
            try {
                return nextLocked(consumer);
            }
            finally {
                lastRead = System.nanoTime();
                reading.decrementAndGet();
            }
        }

        private synchronized VectorSchemaRoot nextLocked(int consumer)
        {
            if (partitioned()) {
                while (partitions.get(consumer).isEmpty()) {
                    awaitMore();
                    if (ended && partitions.get(consumer).isEmpty()) {
                        return null;
                    }
                }
                // the consumer's own rows: handed over, not shared
                return partitions.get(consumer).poll();
            }
            while (cursors[consumer] - first >= buffered.size()) {
                if (failure != null) {
                    throw failure;
                }
                if (ended) {
                    return null;
                }
                if (closed) {
                    throw new OntulException(ErrorCode.QUERY_CANCELLED, "Output " + key + " was stopped");
                }
                pull();
            }
            VectorSchemaRoot batch = buffered.get(cursors[consumer] - first);
            cursors[consumer]++;
            VectorSchemaRoot slice = batch.slice(0, batch.getRowCount());
            release();
            return slice;
        }

        /** Reads the share's next batch; at its end sets {@link #ended}. */
        private void awaitMore()
        {
            if (failure != null) {
                throw failure;
            }
            if (closed) {
                throw new OntulException(ErrorCode.QUERY_CANCELLED, "Output " + key + " was stopped");
            }
            if (!ended) {
                pull();
            }
        }

        private void pull()
        {
            try {
                VectorSchemaRoot batch = source.next();
                if (batch == null) {
                    ended = true;
                    return;
                }
                if (partitioned()) {
                    scatter(batch);
                }
                else {
                    buffered.add(io.ontul.engine.operator.Batches.transfer(batch, allocator));
                }
            }
            catch (RuntimeException e) {
                failure = e;
                throw e;
            }
        }

        /** Splits a batch into the consumers' partitions by a hash of its keys (seeded apart from the consumers' own repartitioning). */
        private void scatter(VectorSchemaRoot batch)
        {
            int rows = batch.getRowCount();
            if (rows == 0) {
                return;
            }
            long[] hashes = new long[rows];
            for (int key : partitionKeys) {
                io.ontul.engine.operator.Columns.hashInto(batch.getVector(key), rows, hashes);
            }
            int consumers = partitions.size();
            int[] partitionOf = new int[rows];
            for (int row = 0; row < rows; row++) {
                partitionOf[row] = (int) (((io.ontul.engine.operator.Columns.remix(hashes[row], WORKER_PARTITION_SEED) >>> 32) * consumers) >>> 32);
            }
            VectorSchemaRoot[] slices = io.ontul.engine.operator.Batches.scatter(batch, partitionOf, consumers, allocator);
            for (int consumer = 0; consumer < consumers; consumer++) {
                if (slices[consumer] == null) {
                    continue;
                }
                if (done[consumer]) {
                    slices[consumer].close();
                }
                else {
                    partitions.get(consumer).add(slices[consumer]);
                }
            }
        }

        /** Frees the batches every consumer has read (a finished consumer reads no more). */
        private void release()
        {
            int least = Integer.MAX_VALUE;
            for (int consumer = 0; consumer < cursors.length; consumer++) {
                if (!done[consumer]) {
                    least = Math.min(least, cursors[consumer]);
                }
            }
            while (!buffered.isEmpty() && first < least) {
                buffered.remove(0).close();
                first++;
            }
        }

        synchronized void finished(int consumer)
        {
            done[consumer] = true;
            release();
            if (partitioned()) {
                partitions.get(consumer).forEach(VectorSchemaRoot::close);
                partitions.get(consumer).clear();
            }
            boolean all = true;
            for (boolean finished : done) {
                all &= finished;
            }
            if (all) {
                abandon();
            }
        }

        /** Stops the share and frees what it holds. */
        synchronized void abandon()
        {
            if (closed) {
                return;
            }
            closed = true;
            Arrays.fill(done, true);
            outputs.remove(key, this);
            buffered.forEach(VectorSchemaRoot::close);
            buffered.clear();
            for (java.util.ArrayDeque<VectorSchemaRoot> partition : partitions) {
                partition.forEach(VectorSchemaRoot::close);
                partition.clear();
            }
            source.close();
        }

        /** A consumer's stream. */
        private final class Reader
                implements Stream
        {
            private final int consumer;
            private VectorSchemaRoot current;
            private boolean finished;

            Reader(int consumer)
            {
                this.consumer = consumer;
            }

            @Override
            public Schema schema()
            {
                return source.schema();
            }

            @Override
            public VectorSchemaRoot next()
            {
                closeCurrent();
                current = Output.this.next(consumer);
                return current;
            }

            /** What the share's computation received, for the first consumer (every consumer reads every share). */
            @Override
            public long exchangedBytes()
            {
                return consumer == 0 ? source.exchangedBytes() : 0;
            }

            @Override
            public void close()
            {
                closeCurrent();
                if (!finished) {
                    finished = true;
                    finished(consumer);
                }
            }

            private void closeCurrent()
            {
                if (current != null) {
                    current.close();
                    current = null;
                }
            }
        }
    }
}
