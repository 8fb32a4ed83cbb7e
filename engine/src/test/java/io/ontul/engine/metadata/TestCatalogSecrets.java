package io.ontul.engine.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.crypto.ExchangeStreamFactory;
import io.ontul.spi.OntulException;

/**
 * Catalog properties in the metadata store are sealed with the KMS: the stored text holds no
 * property name or value, survives master key rotation, is refused under another master key, and
 * rows an earlier version stored in plain JSON are sealed when next listed.
 */
class TestCatalogSecrets
{
    private static final String PASSWORD = "hunter2-correct-horse";
    private static final Map<String, String> PROPERTIES = Map.of("connection-url", "jdbc:postgresql://db.internal/sales", "connection-password", PASSWORD);

    @TempDir
    Path directory;

    private MetadataStore store;
    private ExchangeStreamFactory streams;

    @BeforeEach
    void open()
            throws Exception
    {
        store = MetadataStore.inMemory();
        streams = streams(directory.resolve("kms"));
    }

    @AfterEach
    void close()
    {
        store.close();
    }

    private static ExchangeStreamFactory streams(Path keyDirectory)
            throws Exception
    {
        return ExchangeStreamFactory.create(EncryptionConfig.fromProperties(Map.of()), keyDirectory, Optional.empty());
    }

    @Test
    void propertiesAreStoredSealed()
            throws Exception
    {
        StoredCatalogs catalogs = store.catalogs(CatalogSecrets.sealedWith(streams));
        assertThat(catalogs.create(new StoredCatalog("sales", "jdbc", PROPERTIES), "admin")).isTrue();
        String stored = storedProperties("sales");
        assertThat(stored).startsWith(CatalogSecrets.MARKER).doesNotContain(PASSWORD).doesNotContain("connection-password").doesNotContain("db.internal");
        assertThat(catalogs.list()).containsExactly(new StoredCatalog("sales", "jdbc", PROPERTIES));

        // rows sealed before a rotation stay readable; new ones use the new version
        streams.keyManagement().orElseThrow().rotateMasterKey();
        catalogs.create(new StoredCatalog("after", "memory", Map.of("note", "x")), "admin");
        assertThat(catalogs.list()).extracting(StoredCatalog::name).containsExactly("after", "sales");
        assertThat(catalogs.list().get(1).properties()).containsEntry("connection-password", PASSWORD);
    }

    @Test
    void anotherMasterKeyCannotOpenThem()
            throws Exception
    {
        store.catalogs(CatalogSecrets.sealedWith(streams)).create(new StoredCatalog("sales", "jdbc", PROPERTIES), "admin");
        StoredCatalogs elsewhere = store.catalogs(CatalogSecrets.sealedWith(streams(directory.resolve("other-kms"))));
        assertThatThrownBy(elsewhere::list)
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("Cannot decrypt the properties of catalog 'sales'")
                .hasMessageContaining("key directory")
                .hasMessageNotContaining(PASSWORD);
        assertThatThrownBy(() -> store.catalogs().list())
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("properties of catalog 'sales' are encrypted");
    }

    @Test
    void plainRowsOfAnEarlierVersionAreSealedWhenListed()
            throws Exception
    {
        store.catalogs(CatalogSecrets.plaintext()).create(new StoredCatalog("legacy", "jdbc", PROPERTIES), "admin");
        assertThat(storedProperties("legacy")).contains(PASSWORD);

        StoredCatalogs sealed = store.catalogs(CatalogSecrets.sealedWith(streams));
        assertThat(sealed.list()).containsExactly(new StoredCatalog("legacy", "jdbc", PROPERTIES));
        assertThat(storedProperties("legacy")).startsWith(CatalogSecrets.MARKER).doesNotContain(PASSWORD);
        assertThat(sealed.list()).containsExactly(new StoredCatalog("legacy", "jdbc", PROPERTIES));
    }

    @Test
    void withoutEncryptionTheyStayPlain()
            throws Exception
    {
        ExchangeStreamFactory unencrypted = ExchangeStreamFactory.create(EncryptionConfig.fromProperties(Map.of(EncryptionConfig.ENABLED, "false")), directory.resolve("none"), Optional.empty());
        StoredCatalogs catalogs = store.catalogs(CatalogSecrets.sealedWith(unencrypted));
        assertThat(CatalogSecrets.sealedWith(unencrypted).seals()).isFalse();
        catalogs.create(new StoredCatalog("plain", "memory", Map.of("note", "visible")), "admin");
        assertThat(storedProperties("plain")).isEqualTo("{\"note\":\"visible\"}");
        assertThat(catalogs.list()).containsExactly(new StoredCatalog("plain", "memory", Map.of("note", "visible")));
    }

    private String storedProperties(String catalog)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT properties FROM ontul_catalogs WHERE name = ?")) {
                select.setString(1, catalog);
                try (ResultSet rows = select.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    return rows.getString(1);
                }
            }
        });
    }
}
