package io.ontul.engine.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

class TestQueryCancel
{
    private static Engine engine;

    @BeforeAll
    static void start()
    {
        engine = Engine.createEmbedded();
    }

    @AfterAll
    static void stop()
    {
        engine.close();
    }

    @Test
    void cancelFromAnotherThreadStopsTheQueryAndTheSessionCarriesOn()
            throws Exception
    {
        Session session = engine.createSession("test");
        // generating SF1 lineitem takes seconds: the cancel arrives while the aggregation consumes it
        try (QueryResult result = session.execute("SELECT count(*) FROM tpch.sf1.lineitem WHERE l_quantity > 10")) {
            CountDownLatch started = new CountDownLatch(1);
            Thread canceller = new Thread(() -> {
                started.countDown();
                result.cancel();
            });
            canceller.start();
            started.await();
            canceller.join();
            assertThatThrownBy(result::nextBatch)
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_CANCELLED));
        }
        try (QueryResult result = session.execute("SELECT count(*) FROM tpch.tiny.nation")) {
            VectorSchemaRoot batch = result.nextBatch();
            assertThat(((BigIntVector) batch.getVector(0)).get(0)).isEqualTo(25);
        }
        assertThat(engine.rootAllocator().getAllocatedMemory()).isEqualTo(0);
    }

    @Test
    void cancelWhileRunningReleasesEverything()
            throws Exception
    {
        Session session = engine.createSession("test");
        QueryResult result = session.execute("SELECT l_orderkey, count(*) FROM tpch.sf1.lineitem GROUP BY l_orderkey");
        Thread canceller = new Thread(() -> {
            try {
                Thread.sleep(500);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            result.cancel();
        });
        canceller.start();
        // the query is still consuming its input when the cancel arrives (generating SF1 takes seconds)
        assertThatThrownBy(result::nextBatch)
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_CANCELLED));
        canceller.join();
        result.close();
        assertThat(engine.rootAllocator().getAllocatedMemory()).isEqualTo(0);
    }
}
