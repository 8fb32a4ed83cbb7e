package io.ontul.server.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelFlightInfoResult;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;
import io.ontul.server.testing.TcpRelay;

/**
 * CancelFlightInfo and clients that go away mid-stream: either way the query stops, its memory
 * and handles are freed, and the server keeps answering. A running query is seen as a
 * {@code query-*} child of the engine's root allocator, which lives exactly as long as the query.
 */
class TestFlightSqlCancellation
{
    private static final String PASSWORD = "test-password-cancel";
    private static final String LONG_COUNT = "SELECT count(*) FROM tpch.sf1.lineitem a, tpch.tiny.nation b";
    private static final String LONG_STREAM = "SELECT * FROM tpch.sf1.lineitem";

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static BufferAllocator allocator;

    @BeforeAll
    static void start()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        allocator = new RootAllocator();
    }

    @AfterAll
    static void stop()
    {
        if (allocator != null) {
            allocator.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void nothingLeftRunning()
            throws InterruptedException
    {
        awaitIdle();
    }

    private static long runningQueries()
    {
        return server.engine().rootAllocator().getChildAllocators().stream()
                .filter(child -> child.getName().startsWith("query-"))
                .count();
    }

    /** Waits until no query runs and no handle is open; fails after 30 s. */
    private static void awaitIdle()
            throws InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (runningQueries() > 0 || server.openHandles() > 0) {
            assertThat(System.nanoTime())
                    .as("%d queries still running, %d handles open", runningQueries(), server.openHandles())
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static FlightClient connect(int port)
    {
        return FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port)).build();
    }

    private static long count(FlightSqlClient sql, CredentialCallOption bearer, String query)
            throws Exception
    {
        FlightInfo info = sql.execute(query, bearer);
        try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
            assertThat(stream.next()).isTrue();
            return ((BigIntVector) stream.getRoot().getVector(0)).get(0);
        }
    }

    @Test
    void cancelFlightInfoStopsAStreamingQuery()
            throws Exception
    {
        try (FlightClient client = connect(server.port()); FlightSqlClient sql = new FlightSqlClient(client)) {
            CredentialCallOption bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
            FlightInfo info = sql.execute(LONG_COUNT, bearer);
            assertThat(server.openHandles()).isEqualTo(1);
            CompletableFuture<Boolean> reading = CompletableFuture.supplyAsync(() -> {
                try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
                    return stream.next();
                }
                catch (FlightRuntimeException e) {
                    throw e;
                }
                catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            // DoGet took the parked result: the query streams now
            while (server.openHandles() > 0) {
                Thread.sleep(10);
            }
            assertThat(runningQueries()).isEqualTo(1);

            CancelFlightInfoResult result = sql.cancelFlightInfo(new CancelFlightInfoRequest(info), bearer);
            assertThat(result.getStatus()).isEqualTo(CancelStatus.CANCELLED);
            Throwable failure = assertThrows(Exception.class, () -> reading.get(30, TimeUnit.SECONDS)).getCause();
            assertThat(failure).isInstanceOf(FlightRuntimeException.class);
            assertThat(((FlightRuntimeException) failure).status().code()).isEqualTo(FlightStatusCode.CANCELLED);

            awaitIdle();
            assertThat(count(sql, bearer, "SELECT count(*) FROM tpch.tiny.nation")).isEqualTo(25);
            // the query is over: nothing is left to cancel
            assertThat(sql.cancelFlightInfo(new CancelFlightInfoRequest(info), bearer).getStatus()).isEqualTo(CancelStatus.NOT_CANCELLABLE);
        }
    }

    @Test
    void cancelFlightInfoBeforeFetchClosesTheParkedResult()
            throws Exception
    {
        try (FlightClient client = connect(server.port()); FlightSqlClient sql = new FlightSqlClient(client)) {
            CredentialCallOption bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
            FlightInfo info = sql.execute(LONG_COUNT, bearer);
            assertThat(server.openHandles()).isEqualTo(1);
            assertThat(sql.cancelFlightInfo(new CancelFlightInfoRequest(info), bearer).getStatus()).isEqualTo(CancelStatus.CANCELLED);
            assertThat(server.openHandles()).isZero();
            FlightRuntimeException gone = assertThrows(FlightRuntimeException.class, () -> {
                try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
                    stream.next();
                }
            });
            assertThat(gone.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
            awaitIdle();
            assertThat(count(sql, bearer, "SELECT count(*) FROM tpch.tiny.region")).isEqualTo(5);
        }
    }

    /** Closing a prepared statement stops what it runs, as closing a JDBC statement closes its result set: a parked result and a streaming one. */
    @Test
    void closingAPreparedStatementStopsItsExecutions()
            throws Exception
    {
        try (FlightClient client = connect(server.port()); FlightSqlClient sql = new FlightSqlClient(client)) {
            CredentialCallOption bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
            FlightSqlClient.PreparedStatement prepared = sql.prepare(LONG_COUNT, bearer);
            FlightInfo parked = prepared.execute(bearer);
            FlightInfo streamed = prepared.execute(bearer);
            CompletableFuture<Boolean> reading = CompletableFuture.supplyAsync(() -> {
                try (FlightStream stream = sql.getStream(streamed.getEndpoints().get(0).getTicket(), bearer)) {
                    return stream.next();
                }
                catch (FlightRuntimeException e) {
                    throw e;
                }
                catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            // the second execution streams, the first waits parked (and the statement is open)
            while (server.openHandles() > 2) {
                Thread.sleep(10);
            }
            assertThat(runningQueries()).isEqualTo(2);
            prepared.close(bearer);
            Throwable failure = assertThrows(Exception.class, () -> reading.get(30, TimeUnit.SECONDS)).getCause();
            assertThat(((FlightRuntimeException) failure).status().code()).isEqualTo(FlightStatusCode.CANCELLED);
            FlightRuntimeException gone = assertThrows(FlightRuntimeException.class, () -> {
                try (FlightStream stream = sql.getStream(parked.getEndpoints().get(0).getTicket(), bearer)) {
                    stream.next();
                }
            });
            assertThat(gone.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
            awaitIdle();
            assertThat(count(sql, bearer, "SELECT count(*) FROM tpch.tiny.nation")).isEqualTo(25);
        }
    }

    @Test
    void closingTheStreamEarlyFreesTheQuery()
            throws Exception
    {
        try (FlightClient client = connect(server.port()); FlightSqlClient sql = new FlightSqlClient(client)) {
            CredentialCallOption bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
            FlightInfo info = sql.execute(LONG_STREAM, bearer);
            try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
                assertThat(stream.next()).isTrue();
                assertThat(runningQueries()).isEqualTo(1);
            }
            awaitIdle();
            assertThat(count(sql, bearer, "SELECT count(*) FROM tpch.tiny.nation")).isEqualTo(25);
        }
    }

    @Test
    void aClientThatDisconnectsMidStreamFreesTheQuery()
            throws Exception
    {
        try (TcpRelay cutter = new TcpRelay(server.port())) {
            FlightClient client = connect(cutter.port());
            FlightSqlClient sql = new FlightSqlClient(client);
            CredentialCallOption bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
            FlightInfo info = sql.execute(LONG_STREAM, bearer);
            FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer);
            assertThat(stream.next()).isTrue();
            assertThat(runningQueries()).isEqualTo(1);

            cutter.cut();
            awaitIdle();

            // the client side is broken now; release what it holds
            assertThrows(Exception.class, () -> {
                while (stream.next()) {
                    // drain what arrived before the cut
                }
            });
            stream.close();
            client.close();
        }
        try (FlightClient client = connect(server.port()); FlightSqlClient sql = new FlightSqlClient(client)) {
            CredentialCallOption bearer = client.authenticateBasicToken("admin", PASSWORD).orElseThrow();
            assertThat(count(sql, bearer, "SELECT count(*) FROM tpch.tiny.nation")).isEqualTo(25);
        }
    }
}
