package io.ontul.engine.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** The embedded default: H2 in memory for the contract, H2 files under the data directory for durability. */
class TestH2MetadataStore
        extends AbstractTestMetadataStore
{
    @TempDir
    Path dataDir;

    private MetadataStore store;

    @BeforeEach
    void open()
    {
        store = MetadataStore.inMemory();
    }

    @AfterEach
    void close()
    {
        store.close();
    }

    @Override
    protected MetadataStore store()
    {
        return store;
    }

    @Test
    void storeUnderTheDataDirectorySurvivesReopening()
            throws Exception
    {
        EngineConfig config = new EngineConfig(Map.of(MetadataStore.DATA_DIR, dataDir.toString()), Map.of());
        try (MetadataStore first = MetadataStore.open(config)) {
            first.catalogs().create(new StoredCatalog("lake", "iceberg", Map.of("iceberg.warehouse", "/tmp/w")), "admin");
            first.connectorStore("kafka").put("table", "default.events", "{}");
            assertThat(first.location()).startsWith("jdbc:h2:async:" + dataDir.resolve("metadata").toAbsolutePath());
        }
        try (MetadataStore second = MetadataStore.open(config)) {
            assertThat(second.catalogs().list()).extracting(StoredCatalog::name).containsExactly("lake");
            assertThat(second.connectorStore("kafka").get("table", "default.events")).contains("{}");
            assertThat(second.schemaVersion()).isEqualTo(SchemaMigrations.SCRIPTS.size());
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve("metadata")))).isEqualTo("rwx------");
    }

    /**
     * Processes that open the embedded store, commit and are killed with SIGKILL, one after the
     * other: each finds the counter the one before acknowledged. H2's retention time is set to 0
     * here so that it would reuse freed space at once, as it does after 45 s by default: with
     * space reuse (without REUSE_SPACE=FALSE) this lost acknowledged commits within 40 kills.
     */
    @Test
    void acknowledgedCommitsSurviveKills()
            throws Exception
    {
        String url = MetadataStore.EMBEDDED_PREFIX + dataDir.resolve("killed").toAbsolutePath() + MetadataStore.EMBEDDED_OPTIONS + ";RETENTION_TIME=0";
        Random random = new Random();
        String acknowledged = "none";
        // a process killed between its commit and its "acked": the next finds either value
        String unacknowledged = null;
        Path output = dataDir.resolve("writer.out");
        for (int process = 1; process <= 40; process++) {
            Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                    KilledStoreWriter.class.getName(), url, String.valueOf(process))
                    .redirectOutput(output.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            try {
                String found = awaitLine(output, 0, writer);
                assertThat(found).as("what process %s found", process).isIn("found " + acknowledged, "found " + unacknowledged);
                acknowledged = found.substring("found ".length());
                // killed once it acknowledged, or at a random moment before
                boolean acked = random.nextBoolean();
                if (acked) {
                    assertThat(awaitLine(output, 1, writer)).isEqualTo("acked " + process);
                }
                else {
                    Thread.sleep(random.nextInt(30));
                }
                writer.destroyForcibly();
                assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
                acked |= Files.readAllLines(output).contains("acked " + process);
                if (acked) {
                    acknowledged = String.valueOf(process);
                    unacknowledged = null;
                }
                else {
                    unacknowledged = String.valueOf(process);
                }
            }
            finally {
                writer.destroyForcibly();
            }
        }
    }

    /** Line {@code index} of the writer's output once it is there. */
    private static String awaitLine(Path output, int index, Process writer)
            throws Exception
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            List<String> lines = Files.readAllLines(output);
            // a line is whole once the next one started or it ends with a line break
            if (lines.size() > index && (lines.size() > index + 1 || Files.readString(output).endsWith("\n"))) {
                return lines.get(index);
            }
            assertThat(writer.isAlive()).as("the writer runs").isTrue();
            Thread.sleep(5);
        }
        throw new AssertionError("The writer printed no line " + index + " within 60 s: " + Files.readAllLines(output));
    }

    /** Interrupts of a thread while it writes (as cancel and shutdown interrupt) leave the store open for everyone else. */
    @Test
    void interruptedWritersLeaveTheStoreOpen()
            throws Exception
    {
        EngineConfig config = new EngineConfig(Map.of(MetadataStore.DATA_DIR, dataDir.toString()), Map.of());
        try (MetadataStore store = MetadataStore.open(config)) {
            ConnectorStore entries = store.connectorStore("kafka");
            java.util.concurrent.atomic.AtomicInteger written = new java.util.concurrent.atomic.AtomicInteger();
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 2_000; i++) {
                    try {
                        entries.put("table", "t" + (i % 50), "{\"n\": " + i + "}");
                        written.incrementAndGet();
                    }
                    catch (RuntimeException e) {
                        // this write was interrupted; the next one clears the flag and goes on
                        Thread.interrupted();
                    }
                }
            });
            writer.start();
            for (int i = 0; i < 20 && writer.isAlive(); i++) {
                Thread.sleep(5);
                writer.interrupt();
            }
            writer.join();
            assertThat(written.get()).as("writes that were not interrupted").isGreaterThan(1_000);
            entries.put("table", "after", "{}");
            assertThat(entries.get("table", "after")).contains("{}");
        }
        try (MetadataStore reopened = MetadataStore.open(config)) {
            assertThat(reopened.connectorStore("kafka").get("table", "after")).contains("{}");
        }
    }

    @Test
    void closeCompactsTheFile()
    {
        EngineConfig config = new EngineConfig(Map.of(MetadataStore.DATA_DIR, dataDir.toString()), Map.of());
        Path file = dataDir.resolve("metadata").resolve("ontul.mv.db");
        long written;
        try (MetadataStore first = MetadataStore.open(config)) {
            for (int i = 0; i < 200; i++) {
                first.connectorStore("kafka").put("table", "t" + (i % 5), "{\"v\": \"" + "y".repeat(5_000) + i + "\"}");
            }
            written = sizeOf(file);
        }
        assertThat(sizeOf(file)).as("after close, was %s bytes", written).isLessThan(written / 4);
        try (MetadataStore second = MetadataStore.open(config)) {
            assertThat(second.connectorStore("kafka").get("table", "t4")).hasValueSatisfying(value -> assertThat(value).endsWith("199\"}"));
        }
    }

    private static long sizeOf(Path file)
    {
        try {
            return Files.size(file);
        }
        catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void unreachableDatabaseIsAnExternalErrorNamingIt()
    {
        EngineConfig config = new EngineConfig(Map.of(MetadataStore.URL, "jdbc:postgresql://127.0.0.1:1/ontul", MetadataStore.PASSWORD, "pg-secret"), Map.of());
        assertThatThrownBy(() -> MetadataStore.open(config))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR))
                .hasMessageStartingWith("Cannot open the metadata store at jdbc:postgresql://127.0.0.1:1/ontul: ")
                .hasMessageNotContaining("pg-secret");
    }

    @Test
    void scriptsSplitIntoStatements()
    {
        assertThat(SchemaMigrations.statements(SchemaMigrations.SCRIPTS.get(0)))
                .hasSize(3)
                .allSatisfy(statement -> assertThat(statement).startsWith("CREATE TABLE ").doesNotEndWith(";"));
    }
}
