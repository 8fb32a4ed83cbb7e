package io.ontul.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.ontul.spi.cluster.FragmentRequest;
import io.ontul.spi.cluster.WorkerAddress;

/**
 * A worker's share of a nested fragment, computed once for every consumer: each reads all of it
 * from the start, whenever it comes; a batch is freed once all have read it; the share stops when
 * the last consumer closes, and a second attempt of the same query gets a share of its own.
 */
class TestPeerOutputs
{
    private static final Schema SCHEMA = new Schema(List.of(new Field("k", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

    private final BufferAllocator root = new RootAllocator();
    private final BufferAllocator query = root.newChildAllocator("query", 0, Long.MAX_VALUE);
    private final PeerOutputs outputs = new PeerOutputs(root.newChildAllocator("outputs", 0, Long.MAX_VALUE));

    @AfterEach
    void tearDown()
    {
        outputs.close();
        query.close();
        root.close();
    }

    @Test
    void everyConsumerReadsTheWholeShareWhichRunsOnce()
    {
        AtomicInteger runs = new AtomicInteger();
        FakeShare share = new FakeShare(List.of(List.of(1L, 2L), List.of(3L), List.of(4L, 5L, 6L)));
        PeerOutputs.Stream first = outputs.read(request(0, 1), () -> {
            runs.incrementAndGet();
            return share;
        });
        assertThat(rows(first.next())).containsExactly(1L, 2L);
        assertThat(rows(first.next())).containsExactly(3L);
        // the second consumer comes later and still reads from the start
        PeerOutputs.Stream second = outputs.read(request(1, 1), () -> {
            runs.incrementAndGet();
            return share;
        });
        assertThat(runs).hasValue(1);
        assertThat(readAll(second)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(readAll(first)).containsExactly(4L, 5L, 6L);
        second.close();
        assertThat(share.closed).isFalse();
        first.close();
        // the last consumer gone: the share stopped, its memory freed, and a retry of the query starts anew
        assertThat(share.closed).isTrue();
        assertThat(outputs.size()).isZero();
        assertThat(query.getAllocatedMemory()).isZero();
        FakeShare retried = new FakeShare(List.of(List.of(7L)));
        PeerOutputs.Stream again = outputs.read(request(0, 2), () -> retried);
        assertThat(readAll(again)).containsExactly(7L);
        again.close();
    }

    @Test
    void aFailureOfTheShareReachesEveryConsumerAndAConsumerReadsOnlyOnce()
    {
        FakeShare share = new FakeShare(List.of(List.of(1L)));
        share.failAfter = 1;
        PeerOutputs.Stream first = outputs.read(request(0, 1), () -> share);
        PeerOutputs.Stream second = outputs.read(request(1, 1), () -> share);
        assertThat(rows(first.next())).containsExactly(1L);
        assertThatThrownBy(first::next).hasMessage("the share failed");
        assertThat(rows(second.next())).containsExactly(1L);
        assertThatThrownBy(second::next).hasMessage("the share failed");
        first.close();
        assertThatThrownBy(() -> outputs.read(request(0, 1), () -> share)).hasMessageContaining("was already read by consumer 0");
        second.close();
        assertThat(share.closed).isTrue();
    }

    @Test
    void aRepartitionGivesEachConsumerTheRowsOfItsOwnKeys()
    {
        List<Long> keys = new ArrayList<>();
        for (long key = 0; key < 1_000; key++) {
            keys.add(key % 100);
        }
        FakeShare share = new FakeShare(List.of(keys.subList(0, 400), keys.subList(400, 1_000)));
        PeerOutputs.Stream first = outputs.read(request(0, 1, List.of(0)), () -> share);
        PeerOutputs.Stream second = outputs.read(request(1, 1, List.of(0)), () -> share);
        List<Long> firstRows = readAll(first);
        List<Long> secondRows = readAll(second);
        assertThat(firstRows).isNotEmpty();
        assertThat(secondRows).isNotEmpty();
        // every row once, every key in one place
        List<Long> all = new ArrayList<>(firstRows);
        all.addAll(secondRows);
        assertThat(all).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(firstRows).doesNotContainAnyElementsOf(secondRows);
        first.close();
        second.close();
        assertThat(share.closed).isTrue();
        assertThat(outputs.size()).isZero();
    }

    private static FragmentRequest request(int consumer, int attempt)
    {
        return request(consumer, attempt, List.of());
    }

    private static FragmentRequest request(int consumer, int attempt, List<Integer> partitionKeys)
    {
        List<WorkerAddress> peers = List.of(new WorkerAddress("a", "grpc+tcp://127.0.0.1:1"), new WorkerAddress("b", "grpc+tcp://127.0.0.1:2"));
        return FragmentRequest.statement("q1", "admin", "SELECT 1", null, null, Map.of(), 2, attempt)
                .forWorker(0, "", consumer, peers, Map.of())
                .forPeer(1, "", 0, partitionKeys);
    }

    private static List<Long> readAll(PeerOutputs.Stream stream)
    {
        List<Long> rows = new ArrayList<>();
        for (VectorSchemaRoot batch = stream.next(); batch != null; batch = stream.next()) {
            rows.addAll(rows(batch));
        }
        return rows;
    }

    private static List<Long> rows(VectorSchemaRoot batch)
    {
        List<Long> rows = new ArrayList<>();
        BigIntVector vector = (BigIntVector) batch.getVector(0);
        for (int row = 0; row < batch.getRowCount(); row++) {
            rows.add(vector.get(row));
        }
        return rows;
    }

    /** A fragment's output as the worker's executor gives it: each batch valid until the next call. */
    private final class FakeShare
            implements PeerOutputs.Stream
    {
        private final Deque<List<Long>> batches;
        private VectorSchemaRoot current;
        private int failAfter = -1;
        private int produced;
        private boolean closed;

        FakeShare(List<List<Long>> batches)
        {
            this.batches = new ArrayDeque<>(batches);
        }

        @Override
        public Schema schema()
        {
            return SCHEMA;
        }

        @Override
        public VectorSchemaRoot next()
        {
            if (current != null) {
                current.close();
                current = null;
            }
            if (produced == failAfter) {
                throw new IllegalStateException("the share failed");
            }
            List<Long> values = batches.poll();
            if (values == null) {
                return null;
            }
            produced++;
            current = VectorSchemaRoot.create(SCHEMA, query);
            BigIntVector vector = (BigIntVector) current.getVector(0);
            for (int row = 0; row < values.size(); row++) {
                vector.setSafe(row, values.get(row));
            }
            current.setRowCount(values.size());
            return current;
        }

        @Override
        public void close()
        {
            if (current != null) {
                current.close();
                current = null;
            }
            closed = true;
        }
    }
}
