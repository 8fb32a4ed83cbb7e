package io.ontul.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

import io.ontul.engine.api.QueryResult;

/**
 * Results that HTTP clients stop reading are closed after ten minutes without a page (the
 * query's memory and slot given back), ones read to their end are forgotten after a minute; on a
 * test clock, with a hand-written result.
 */
class TestHttpStatementExpiry
{
    @Test
    void anUnreadResultIsClosedAfterTenMinutesAndAReadOneAfterAMinute()
    {
        AtomicLong now = new AtomicLong();
        try (BufferAllocator allocator = new RootAllocator()) {
            HttpStatements statements = new HttpStatements(now::get);
            CountingResult unread = new CountingResult("q_unread", allocator, 3);
            HttpStatement paged = new HttpStatement("ann", unread, 2, now::get);
            assertThat(paged.page(1)).contains("\"nextUri\"");
            statements.add(paged);
            CountingResult read = new CountingResult("q_read", allocator, 1);
            HttpStatement finished = new HttpStatement("ann", read, 2, now::get);
            assertThat(finished.page(1)).doesNotContain("nextUri");
            statements.add(finished);

            now.addAndGet(Duration.ofSeconds(59).toNanos());
            statements.expire();
            assertThat(statements.size()).isEqualTo(2);
            now.addAndGet(Duration.ofSeconds(2).toNanos());
            statements.expire();
            // the read one went, its last page no longer asked for; the unread one stays
            assertThat(statements.get("q_read", "ann")).isEmpty();
            assertThat(statements.get("q_unread", "ann")).isPresent();
            assertThat(statements.get("q_unread", "bob")).as("another user's").isEmpty();
            assertThat(unread.closed).isFalse();

            // a page asked for keeps it for ten more minutes
            paged.page(1);
            now.addAndGet(HttpStatements.UNFETCHED_TIMEOUT.minusSeconds(1).toNanos());
            statements.expire();
            assertThat(unread.closed).isFalse();
            now.addAndGet(Duration.ofSeconds(2).toNanos());
            statements.expire();
            assertThat(unread.closed).isTrue();
            assertThat(statements.size()).isZero();
        }
    }

    /** Batches of one BIGINT row each; records whether it was closed. */
    private static final class CountingResult
            implements QueryResult
    {
        private final String id;
        private final VectorSchemaRoot root;
        private int left;
        boolean closed;

        CountingResult(String id, BufferAllocator allocator, int batches)
        {
            this.id = id;
            BigIntVector vector = new BigIntVector("n", allocator);
            this.root = new VectorSchemaRoot(List.of(vector));
            this.left = batches;
        }

        @Override
        public String queryId()
        {
            return id;
        }

        @Override
        public Schema schema()
        {
            return root.getSchema();
        }

        @Override
        public boolean isUpdate()
        {
            return false;
        }

        @Override
        public VectorSchemaRoot nextBatch()
        {
            if (left == 0) {
                return null;
            }
            BigIntVector vector = (BigIntVector) root.getVector(0);
            vector.allocateNew(1);
            vector.set(0, left--);
            root.setRowCount(1);
            return root;
        }

        @Override
        public void close()
        {
            closed = true;
            root.close();
        }
    }
}
