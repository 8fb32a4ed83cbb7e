package io.ontul.catalog.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.spi.Connector;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSink;
import io.ontul.spi.stream.StreamSinkProvider;

/**
 * The two-phase streaming sink: nothing is visible after prepareCommit, one snapshot per
 * checkpoint tagged with the job and checkpoint ids, a replayed commit (same or another sink
 * instance) adds nothing, and abort leaves no file.
 */
class TestIcebergStreamSink
{
    private static final org.apache.arrow.vector.types.pojo.Schema COLUMNS = new org.apache.arrow.vector.types.pojo.Schema(List.of(
            new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null)));

    @TempDir
    Path warehouse;

    private BufferAllocator allocator;
    private HadoopCatalog catalog;
    private Connector connector;
    private TableHandle table;

    @BeforeEach
    void setUp()
    {
        allocator = new RootAllocator();
        catalog = IcebergTesting.hadoopCatalog(warehouse);
        connector = IcebergTesting.hadoopConnector("lake", warehouse, allocator);
        connector.metadata().createSchema("db", Map.of());
        table = connector.metadata().createTable("db", "events", COLUMNS, Map.of());
    }

    @AfterEach
    void tearDown()
    {
        connector.close();
        allocator.close();
    }

    @Test
    void commitsEachCheckpointOnceAcrossSinkInstances()
    {
        StreamSinkProvider provider = connector.streamSinkProvider().orElseThrow();
        byte[] first;
        byte[] second;
        try (StreamSink sink = provider.createSink(table, "job-1", allocator)) {
            write(sink, 0, 10);
            first = sink.prepareCommit(1);
            assertThat(ids()).isEmpty();
            sink.commit(1, List.of(first));
            assertThat(ids()).hasSize(10);
            sink.commit(1, List.of(first));
            assertThat(ids()).hasSize(10);

            write(sink, 10, 5);
            second = sink.prepareCommit(2);
            write(sink, 15, 100);
            // the rows after the last barrier are discarded when the sink closes, as in a crash
        }
        assertThat(ids()).hasSize(10);
        try (StreamSink restarted = connector.streamSinkProvider().orElseThrow().createSink(reload(), "job-1", allocator)) {
            restarted.commit(2, List.of(second));
            restarted.commit(2, List.of(second));
            restarted.commit(1, List.of(first));
        }
        assertThat(ids()).containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.range(0, 15).<List<Object>>mapToObj(id -> List.of(id)).toList());

        Table icebergTable = catalog.loadTable(TableIdentifier.of("db", "events"));
        List<Snapshot> snapshots = StreamSupport.stream(icebergTable.snapshots().spliterator(), false).toList();
        assertThat(snapshots).hasSize(2);
        assertThat(snapshots).extracting(snapshot -> snapshot.summary().get("ontul.checkpoint-id")).containsExactly("1", "2");
        assertThat(snapshots).extracting(snapshot -> snapshot.summary().get("ontul.job-id")).containsOnly("job-1");

        // another job's checkpoint 1 is its own
        try (StreamSink other = provider.createSink(reload(), "job-2", allocator)) {
            write(other, 100, 1);
            other.commit(1, List.of(other.prepareCommit(1)));
        }
        assertThat(ids()).hasSize(16);
        assertThat(IcebergTesting.dataFiles(warehouse.resolve("db").resolve("events"))).hasSize(3);
    }

    @Test
    void emptyCheckpointsAddNoSnapshot()
    {
        try (StreamSink sink = connector.streamSinkProvider().orElseThrow().createSink(table, "job-1", allocator)) {
            sink.commit(1, List.of(sink.prepareCommit(1)));
        }
        assertThat(catalog.loadTable(TableIdentifier.of("db", "events")).snapshots()).isEmpty();
    }

    private TableHandle reload()
    {
        return connector.metadata().getTable("db", "events").orElseThrow();
    }

    private List<List<Object>> ids()
    {
        return IcebergTesting.icebergRows(catalog.loadTable(TableIdentifier.of("db", "events")), List.of("id"));
    }

    private void write(StreamSink sink, long from, int count)
    {
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(COLUMNS, allocator)) {
            BigIntVector ids = (BigIntVector) batch.getVector(0);
            ids.allocateNew(count);
            for (int i = 0; i < count; i++) {
                ids.set(i, from + i);
            }
            batch.setRowCount(count);
            sink.write(batch);
        }
    }
}
