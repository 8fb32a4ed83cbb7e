package io.ontul.engine.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
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
            assertThat(first.location()).startsWith("jdbc:h2:file:" + dataDir.resolve("metadata").toAbsolutePath());
        }
        try (MetadataStore second = MetadataStore.open(config)) {
            assertThat(second.catalogs().list()).extracting(StoredCatalog::name).containsExactly("lake");
            assertThat(second.connectorStore("kafka").get("table", "default.events")).contains("{}");
            assertThat(second.schemaVersion()).isEqualTo(SchemaMigrations.SCRIPTS.size());
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve("metadata")))).isEqualTo("rwx------");
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
