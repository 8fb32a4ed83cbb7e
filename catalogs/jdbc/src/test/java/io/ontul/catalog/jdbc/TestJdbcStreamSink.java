package io.ontul.catalog.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.spi.Connector;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSink;
import io.ontul.spi.stream.StreamSinkProvider;

/**
 * The two-phase streaming sink into PostgreSQL: rows stay invisible until the checkpoint's
 * commit, which writes them and the marker in one transaction; a replayed commit, on the same or
 * a new sink, adds nothing; abort discards; tables with a primary key are upserted.
 */
class TestJdbcStreamSink
{
    private static final String SCHEMA = "stream_sink_test";
    private static final String MARKERS = SCHEMA + "." + JdbcStreamSink.MARKER_TABLE;

    private static TestingPostgres postgres;
    private static BufferAllocator allocator;
    private static Connector connector;
    private static StreamSinkProvider provider;

    @BeforeAll
    static void setUp()
    {
        postgres = TestingPostgres.shared();
        postgres.execute(
                "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE",
                "CREATE SCHEMA " + SCHEMA,
                "CREATE TABLE " + SCHEMA + ".appended (id bigint NOT NULL, name varchar)",
                "CREATE TABLE " + SCHEMA + ".replayed (id bigint NOT NULL, name varchar)",
                "CREATE TABLE " + SCHEMA + ".aborted (id bigint NOT NULL, name varchar)",
                "CREATE TABLE " + SCHEMA + ".keyed (id bigint PRIMARY KEY, name varchar)");
        allocator = new RootAllocator();
        connector = JdbcTesting.createConnector(JdbcTesting.connectorProperties(postgres, properties -> properties.put(JdbcConfig.STREAM_MARKER_SCHEMA, SCHEMA)), allocator);
        provider = connector.streamSinkProvider().orElseThrow();
    }

    @AfterAll
    static void tearDown()
    {
        connector.close();
        allocator.close();
    }

    @Test
    void rowsBecomeVisibleAtCommitWithTheMarker()
    {
        TableHandle table = table("appended");
        try (StreamSink sink = provider.createSink(table, "job-a", allocator)) {
            write(sink, table, 1, 3);
            write(sink, table, 4, 2);
            byte[] committable = sink.prepareCommit(1);
            write(sink, table, 6, 1);
            assertThat(rows("appended")).isEmpty();

            sink.commit(1, List.of(committable));
            assertThat(rows("appended")).containsExactly(row(1), row(2), row(3), row(4), row(5));
            assertThat(postgres.query("SELECT job_id, sink, checkpoint_id, committed_at IS NOT NULL FROM " + MARKERS + " WHERE job_id = 'job-a'"))
                    .containsExactly(List.of("job-a", SCHEMA + ".appended", 1L, true));

            sink.commit(2, List.of(sink.prepareCommit(2)));
            assertThat(rows("appended")).containsExactly(row(1), row(2), row(3), row(4), row(5), row(6));
            // one marker per job and sink: the newest
            assertThat(postgres.query("SELECT checkpoint_id FROM " + MARKERS + " WHERE job_id = 'job-a'")).containsExactly(List.of(2L));
        }
    }

    @Test
    void replayedCommitAddsNothing()
    {
        TableHandle table = table("replayed");
        byte[] committable;
        try (StreamSink sink = provider.createSink(table, "job-r", allocator)) {
            write(sink, table, 1, 4);
            committable = sink.prepareCommit(7);
            sink.commit(7, List.of(committable));
            sink.commit(7, List.of(committable));
        }
        assertThat(rows("replayed")).hasSize(4);
        try (StreamSink sink = provider.createSink(table, "job-r", allocator)) {
            // after a restart, on a new sink
            sink.commit(7, List.of(committable));
            // an older checkpoint of the job is in too
            sink.commit(6, List.of(committable));
        }
        assertThat(rows("replayed")).hasSize(4);
        try (StreamSink sink = provider.createSink(table, "job-other", allocator)) {
            sink.commit(7, List.of(committable));
        }
        assertThat(rows("replayed")).hasSize(8);
    }

    @Test
    void abortDiscardsWhatWasNotPrepared()
    {
        TableHandle table = table("aborted");
        try (StreamSink sink = provider.createSink(table, "job-x", allocator)) {
            write(sink, table, 1, 3);
            sink.abort();
            byte[] empty = sink.prepareCommit(1);
            sink.commit(1, List.of(empty));
            write(sink, table, 10, 1);
            byte[] committable = sink.prepareCommit(2);
            write(sink, table, 20, 5);
            sink.abort();
            sink.commit(2, List.of(committable));
        }
        assertThat(rows("aborted")).containsExactly(row(10));
        assertThat(postgres.query("SELECT checkpoint_id FROM " + MARKERS + " WHERE job_id = 'job-x'")).containsExactly(List.of(2L));
    }

    @Test
    void tableWithPrimaryKeyIsUpserted()
    {
        TableHandle table = table("keyed");
        try (StreamSink sink = provider.createSink(table, "job-k", allocator)) {
            assertThat(((JdbcStreamSink) sink).upsert()).isTrue();
            write(sink, table, 1, 3);
            write(sink, table, List.of(2L), "second");
            sink.commit(1, List.of(sink.prepareCommit(1)));
            assertThat(rows("keyed")).containsExactly(row(1), Arrays.asList(2L, "second"), row(3));

            write(sink, table, List.of(3L, 4L), "third");
            sink.commit(2, List.of(sink.prepareCommit(2)));
            assertThat(rows("keyed")).containsExactly(row(1), Arrays.asList(2L, "second"), Arrays.asList(3L, "third"), Arrays.asList(4L, "third"));
        }
        try (StreamSink sink = provider.createSink(table("appended"), "job-k", allocator)) {
            assertThat(((JdbcStreamSink) sink).upsert()).isFalse();
        }
    }

    private static TableHandle table(String name)
    {
        return connector.metadata().getTable(SCHEMA, name).orElseThrow();
    }

    private static void write(StreamSink sink, TableHandle table, int firstId, int count)
    {
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(table.columns(), allocator)) {
            BigIntVector ids = (BigIntVector) batch.getVector(0);
            VarCharVector names = (VarCharVector) batch.getVector(1);
            for (int i = 0; i < count; i++) {
                ids.setSafe(i, firstId + i);
                names.setSafe(i, ("name-" + (firstId + i)).getBytes(UTF_8));
            }
            batch.setRowCount(count);
            sink.write(batch);
        }
    }

    private static void write(StreamSink sink, TableHandle table, List<Long> ids, String name)
    {
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(table.columns(), allocator)) {
            for (int i = 0; i < ids.size(); i++) {
                ((BigIntVector) batch.getVector(0)).setSafe(i, ids.get(i));
                ((VarCharVector) batch.getVector(1)).setSafe(i, name.getBytes(UTF_8));
            }
            batch.setRowCount(ids.size());
            sink.write(batch);
        }
    }

    private static List<List<Object>> rows(String table)
    {
        return postgres.query("SELECT id, name FROM " + SCHEMA + "." + table + " ORDER BY id");
    }

    private static List<Object> row(long id)
    {
        return Arrays.asList(id, "name-" + id);
    }
}
