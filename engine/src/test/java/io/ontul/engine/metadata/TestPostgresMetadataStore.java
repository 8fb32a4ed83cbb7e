package io.ontul.engine.metadata;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import io.ontul.engine.api.EngineConfig;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/** The cluster setting: the same contract on a real PostgreSQL ({@code ontul.metadata.url}). */
class TestPostgresMetadataStore
        extends AbstractTestMetadataStore
{
    private static EmbeddedPostgres postgres;
    private MetadataStore store;

    @BeforeAll
    static void startPostgres()
            throws IOException
    {
        postgres = EmbeddedPostgres.builder()
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("unix_socket_directories", "")
                .start();
    }

    @AfterAll
    static void stopPostgres()
            throws IOException
    {
        postgres.close();
    }

    @BeforeEach
    void open()
            throws SQLException
    {
        try (Connection connection = postgres.getPostgresDatabase().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA public CASCADE");
            statement.execute("CREATE SCHEMA public");
        }
        String url = "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
        store = MetadataStore.open(new EngineConfig(Map.of(MetadataStore.URL, url, MetadataStore.USER, "postgres"), Map.of()));
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
}
