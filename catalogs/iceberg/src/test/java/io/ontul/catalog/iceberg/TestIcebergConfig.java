package io.ontul.catalog.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

class TestIcebergConfig
{
    @TempDir
    Path directory;

    @Test
    void defaultsToAHadoopCatalogInTheDataDirectory()
    {
        IcebergConfig config = IcebergConfig.parse("lake", Map.of(), Optional.of(directory));
        assertThat(config.catalogType()).isEqualTo(IcebergCatalogType.HADOOP);
        assertThat(config.icebergProperties()).isEqualTo(Map.of(
                "warehouse", directory.resolve("warehouse").toString(),
                "metrics-reporter-impl", IcebergDebugMetricsReporter.class.getName()));
        assertThat(config.targetFileSize()).isEmpty();
    }

    @Test
    void jdbcCatalog()
    {
        IcebergConfig config = IcebergConfig.parse("lake", Map.of(
                "iceberg.catalog.type", "JDBC",
                "iceberg.jdbc.url", "jdbc:postgresql://db:5432/iceberg",
                "iceberg.jdbc.user", "ontul",
                "iceberg.jdbc.password", "s3cret",
                "iceberg.warehouse", "s3://bucket/warehouse",
                "iceberg.catalog.io-impl", "org.apache.iceberg.aws.s3.S3FileIO",
                "iceberg.hadoop.fs.s3a.endpoint", "http://minio:9000",
                "iceberg.target-file-size", "128MB"), Optional.empty());
        assertThat(config.catalogType()).isEqualTo(IcebergCatalogType.JDBC);
        assertThat(config.icebergProperties()).isEqualTo(Map.of(
                "uri", "jdbc:postgresql://db:5432/iceberg",
                "jdbc.user", "ontul",
                "jdbc.password", "s3cret",
                "jdbc.schema-version", "V1",
                "warehouse", "s3://bucket/warehouse",
                "io-impl", "org.apache.iceberg.aws.s3.S3FileIO",
                "metrics-reporter-impl", IcebergDebugMetricsReporter.class.getName()));
        assertThat(config.hadoopProperties()).isEqualTo(Map.of("fs.s3a.endpoint", "http://minio:9000"));
        assertThat(config.targetFileSize()).hasValue(128L << 20);
        assertThat(config.toString()).doesNotContain("s3cret");
    }

    @Test
    void restCatalog()
    {
        IcebergConfig config = IcebergConfig.parse("lake", Map.of("iceberg.catalog.type", "rest", "iceberg.rest.uri", "http://localhost:8181", "iceberg.catalog.credential", "id:secret"), Optional.empty());
        assertThat(config.icebergProperties()).isEqualTo(Map.of("uri", "http://localhost:8181", "credential", "id:secret",
                "metrics-reporter-impl", IcebergDebugMetricsReporter.class.getName()));
        assertThat(config.warehouse()).isEmpty();
    }

    @Test
    void rejectsBadProperties()
    {
        assertInvalid(Map.of("iceberg.colour", "blue"), "Catalog 'lake': unknown property 'iceberg.colour'");
        assertInvalid(Map.of("iceberg.catalog.type", "hive"), "Catalog 'lake': property 'iceberg.catalog.type' is 'hive'; use one of hadoop, jdbc, rest");
        assertInvalid(Map.of("iceberg.catalog.type", "jdbc", "iceberg.warehouse", "/w"), "Catalog 'lake': property 'iceberg.jdbc.url' is required with iceberg.catalog.type=jdbc (for example jdbc:sqlite:/var/lib/ontul/iceberg.db)");
        assertInvalid(Map.of("iceberg.catalog.type", "rest"), "Catalog 'lake': property 'iceberg.rest.uri' is required with iceberg.catalog.type=rest (for example http://localhost:8181)");
        assertInvalid(Map.of("iceberg.jdbc.url", "jdbc:sqlite:x"), "Catalog 'lake': property 'iceberg.jdbc.url' needs iceberg.catalog.type=jdbc");
        assertInvalid(Map.of("iceberg.warehouse", "/w", "iceberg.target-file-size", "big"), "Catalog 'lake': property 'iceberg.target-file-size' is 'big'; use a positive size such as 134217728, 128MB or 1GB");
        assertThatThrownBy(() -> IcebergConfig.parse("lake", Map.of(), Optional.empty()))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Catalog 'lake': property 'iceberg.warehouse' is required when the server has no data directory (ontul.data-dir)");
    }

    @Test
    void unreachableRestCatalogFailsQueriesNotTheServer()
    {
        try (BufferAllocator allocator = new RootAllocator()) {
            Connector connector = new IcebergConnectorFactory().create("lake", Map.of("iceberg.catalog.type", "rest", "iceberg.rest.uri", "http://127.0.0.1:9"),
                    IcebergTesting.context(allocator, Optional.empty()));
            assertThatThrownBy(() -> connector.metadata().listSchemas())
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR))
                    .hasMessageStartingWith("Iceberg catalog 'lake' (http://127.0.0.1:9) could not be opened: ");
            connector.close();
        }
    }

    @Test
    void unreachableJdbcCatalogNamesTheDatabase()
    {
        try (BufferAllocator allocator = new RootAllocator()) {
            Connector connector = new IcebergConnectorFactory().create("lake", Map.of(
                            "iceberg.catalog.type", "jdbc",
                            "iceberg.jdbc.url", "jdbc:sqlite:" + directory.resolve("missing/dir/catalog.db"),
                            "iceberg.warehouse", directory.toString()),
                    IcebergTesting.context(allocator, Optional.empty()));
            assertThatThrownBy(() -> connector.metadata().listSchemas())
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR))
                    .hasMessageContaining("Iceberg catalog 'lake' (jdbc:sqlite:" + directory.resolve("missing/dir/catalog.db") + ")");
            connector.close();
        }
    }

    @Test
    void keepsPasswordsOutOfMessages()
    {
        try (BufferAllocator allocator = new RootAllocator()) {
            Connector connector = new IcebergConnectorFactory().create("lake", Map.of(
                            "iceberg.catalog.type", "jdbc",
                            "iceberg.jdbc.url", "jdbc:postgresql://127.0.0.1:9/iceberg?user=ontul&password=hunter2",
                            "iceberg.jdbc.password", "s3cret",
                            "iceberg.warehouse", directory.toString()),
                    IcebergTesting.context(allocator, Optional.empty()));
            assertThatThrownBy(() -> connector.metadata().listSchemas())
                    .isInstanceOfSatisfying(OntulException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR);
                        assertThat(e.getMessage()).startsWith("Iceberg catalog 'lake' (jdbc:postgresql://127.0.0.1:9/iceberg?user=ontul&password=***)");
                        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                            assertThat(String.valueOf(cause.getMessage())).doesNotContain("hunter2").doesNotContain("s3cret");
                        }
                    });
            connector.close();
        }
    }

    private static void assertInvalid(Map<String, String> properties, String message)
    {
        assertThatThrownBy(() -> IcebergConfig.parse("lake", properties, Optional.of(Path.of("/data"))))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage(message);
    }
}
