package io.ontul.catalog.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.Connector;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.TableHandle;

/**
 * Parquet files written by another engine (DuckDB, without Iceberg field ids, v1 and v2 data
 * pages, with encodings Iceberg does not use) added to an Iceberg table, as a migration does:
 * columns are found through the table's name mapping, and Ontul reads the same rows as DuckDB.
 */
class TestIcebergForeignFiles
{
    @TempDir
    Path directory;

    @Test
    void readsFilesWrittenByDuckDb()
            throws Exception
    {
        Schema schema = new Schema(
                Types.NestedField.optional(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "name", Types.StringType.get()),
                Types.NestedField.optional(3, "price", Types.DecimalType.of(10, 2)),
                Types.NestedField.optional(4, "day", Types.DateType.get()),
                Types.NestedField.optional(5, "ts", Types.TimestampType.withoutZone()),
                Types.NestedField.optional(6, "score", Types.DoubleType.get()),
                Types.NestedField.optional(7, "small", Types.IntegerType.get()));
        HadoopCatalog catalog = IcebergTesting.hadoopCatalog(directory.resolve("warehouse"));
        catalog.createNamespace(Namespace.of("db"));
        Table table = catalog.createTable(TableIdentifier.of("db", "migrated"), schema, PartitionSpec.unpartitioned(),
                Map.of(TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(MappingUtil.create(schema))));

        String select = "SELECT range AS id, CASE WHEN range %% 5 = 0 THEN NULL ELSE 'name-' || (range %% 100) END AS name, "
                + "CAST(range / 100.0 AS DECIMAL(10, 2)) AS price, DATE '2020-01-01' + CAST(range %% 1000 AS INTEGER) AS day, "
                + "TIMESTAMP '2020-01-01' + to_seconds(range) AS ts, CASE WHEN range %% 3 = 0 THEN NULL ELSE CAST(range * 1.5 AS DOUBLE) END AS score, "
                + "CAST(range %% 30000 AS INTEGER) AS small FROM range(%d, %d)";
        List<Path> files = List.of(directory.resolve("v1.parquet"), directory.resolve("v2.parquet"));
        try (Connection duckDb = DuckDbTpch.openInMemory(); Statement statement = duckDb.createStatement()) {
            statement.execute("COPY (" + select.formatted(0, 150_000) + ") TO '" + files.get(0) + "' (FORMAT parquet, ROW_GROUP_SIZE 50000)");
            statement.execute("COPY (" + select.formatted(150_000, 300_000) + ") TO '" + files.get(1) + "' (FORMAT parquet, PARQUET_VERSION v2)");
            var append = table.newAppend();
            for (Path file : files) {
                try (ResultSet count = statement.executeQuery("SELECT count(*) FROM read_parquet('" + file + "')")) {
                    count.next();
                    append.appendFile(DataFiles.builder(PartitionSpec.unpartitioned())
                            .withPath(file.toString())
                            .withFormat(FileFormat.PARQUET)
                            .withFileSizeInBytes(Files.size(file))
                            .withRecordCount(count.getLong(1))
                            .build());
                }
            }
            append.commit();

            List<List<Object>> expected;
            try (ResultSet rows = statement.executeQuery("SELECT * FROM read_parquet(['" + files.get(0) + "', '" + files.get(1) + "'])")) {
                expected = ResultRows.drain(rows);
            }
            try (BufferAllocator allocator = new RootAllocator()) {
                Connector connector = IcebergTesting.hadoopConnector("lake", directory.resolve("warehouse"), allocator);
                TableHandle handle = connector.metadata().getTable("db", "migrated").orElseThrow();
                List<List<Object>> actual = IcebergTesting.read(connector, handle, new ScanSpec(List.of("id", "name", "price", "day", "ts", "score", "small"), List.of()), allocator);
                assertThat(sorted(actual)).hasSize(300_000).isEqualTo(sorted(expected));
                assertThat(sorted(actual).get(7)).containsExactly(7L, "name-7", new BigDecimal("0.07"), java.time.LocalDate.of(2020, 1, 8),
                        java.time.LocalDateTime.of(2020, 1, 1, 0, 0, 7), 10.5, 7L);
                connector.close();
            }
        }
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        return rows.stream().sorted(Comparator.comparing(row -> ((Number) row.get(0)).longValue())).toList();
    }
}
