package io.ontul.catalog.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Cancelling a query cancels the statement PostgreSQL is running for it: the blocked scan fails
 * with QUERY_CANCELLED and the database stops working on it, instead of the statement running to
 * its end with a pooled connection held.
 */
class TestJdbcCancellation
{
    private static TestingPostgres postgres;
    private static Engine engine;

    @BeforeAll
    static void setUp()
    {
        postgres = TestingPostgres.shared();
        postgres.execute("DROP VIEW IF EXISTS public.sleepy", "CREATE VIEW public.sleepy AS SELECT 1 AS x FROM (SELECT pg_sleep(120)) AS slept");
        engine = JdbcTesting.createEngine(postgres.catalogProperties());
    }

    @AfterAll
    static void tearDown()
    {
        engine.close();
        postgres.execute("DROP VIEW IF EXISTS public.sleepy");
    }

    @Test
    void cancellingAQueryCancelsItsDatabaseStatement()
            throws Exception
    {
        Session session = engine.createSession("test");
        QueryResult result = session.execute("SELECT x FROM pg.public.sleepy");
        CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> {
            while (result.nextBatch() != null) {
                // a row would come only after two minutes
            }
        });
        awaitSleepingStatements(1);
        result.cancel();
        assertThatThrownBy(() -> reading.get(60, TimeUnit.SECONDS))
                .hasCauseInstanceOf(OntulException.class)
                .cause()
                .satisfies(e -> assertThat(((OntulException) e).code()).isEqualTo(ErrorCode.QUERY_CANCELLED));
        result.close();
        awaitSleepingStatements(0);
        assertThat(JdbcTesting.execute(engine.createSession("test"), "SELECT count(*) FROM tpch.tiny.nation")).containsExactly(List.of(25L));
    }

    private static void awaitSleepingStatements(long expected)
            throws InterruptedException
    {
        for (int attempt = 0; attempt < 600; attempt++) {
            List<List<Object>> rows = postgres.query("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%sleepy%' AND pid <> pg_backend_pid()");
            if (((Number) rows.get(0).get(0)).longValue() == expected) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("PostgreSQL never had " + expected + " statements on the sleeping view");
    }
}
