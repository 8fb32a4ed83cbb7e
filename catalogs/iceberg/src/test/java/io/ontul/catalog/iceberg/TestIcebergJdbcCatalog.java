package io.ontul.catalog.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.BatchSink;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * The Iceberg catalog with table pointers in a SQLite database (Iceberg's JdbcCatalog), as with
 * PostgreSQL in production: SQL round trip against the tpch rows, and a commit that fails because
 * the table left the catalog meanwhile, leaving no file behind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestIcebergJdbcCatalog
{
    @TempDir
    static Path directory;

    private Map<String, String> properties;
    private Engine engine;
    private Session session;
    private JdbcCatalog catalog;

    @BeforeAll
    void setUp()
    {
        properties = Map.of(
                IcebergConfig.CATALOG_TYPE, "jdbc",
                IcebergConfig.JDBC_URL, "jdbc:sqlite:" + directory.resolve("catalog.db"),
                IcebergConfig.WAREHOUSE, directory.resolve("warehouse").toString());
        java.util.HashMap<String, String> catalogProperties = new java.util.HashMap<>(properties);
        catalogProperties.put("connector.name", "iceberg");
        engine = Engine.create(new EngineConfig(Map.of(), Map.of("lake", catalogProperties)));
        session = engine.createSession("test");
        catalog = new JdbcCatalog();
        catalog.setConf(IcebergCatalogSupplier.hadoopConfiguration(Map.of()));
        catalog.initialize("lake", Map.of("uri", properties.get(IcebergConfig.JDBC_URL), "warehouse", properties.get(IcebergConfig.WAREHOUSE), "jdbc.schema-version", "V1"));
        execute("CREATE SCHEMA lake.sales");
    }

    @AfterAll
    void tearDown()
            throws IOException
    {
        if (catalog != null) {
            catalog.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void createInsertAndReadBack()
    {
        assertThat(execute("CREATE TABLE lake.sales.orders AS SELECT * FROM tpch.tiny.orders")).containsExactly(List.of(15_000L));
        assertThat(execute("INSERT INTO lake.sales.orders SELECT * FROM tpch.tiny.orders WHERE o_orderpriority = '1-URGENT'"))
                .isEqualTo(execute("SELECT count(*) FROM tpch.tiny.orders WHERE o_orderpriority = '1-URGENT'"));
        String query = "SELECT o_orderpriority, count(*), sum(o_totalprice), min(o_orderdate), max(o_clerk) FROM %s GROUP BY o_orderpriority ORDER BY 1";
        assertThat(execute(query.formatted("lake.sales.orders"))).isEqualTo(execute(query.formatted(
                "(SELECT * FROM tpch.tiny.orders UNION ALL SELECT * FROM tpch.tiny.orders WHERE o_orderpriority = '1-URGENT')")));
        assertThat(execute("SHOW TABLES FROM lake.sales")).contains(List.of("orders"));
        assertThat(execute("SELECT operation FROM lake.sales.\"orders$snapshots\"")).containsExactly(List.of("append"), List.of("append"));

        Table table = catalog.loadTable(TableIdentifier.of("sales", "orders"));
        assertThat(table.snapshots()).hasSize(2);
        long urgent = (Long) execute("SELECT count(*) FROM tpch.tiny.orders WHERE o_orderpriority = '1-URGENT'").get(0).get(0);
        assertThat(IcebergTesting.icebergRows(table, List.of("o_orderkey"))).hasSize(15_000 + (int) urgent);
    }

    @Test
    void commitToATableDroppedMeanwhileLeavesNoFile()
            throws IOException
    {
        try (BufferAllocator allocator = new RootAllocator()) {
            Connector connector = new IcebergConnectorFactory().create("lake", properties, IcebergTesting.context(allocator, Optional.empty()));
            try {
                org.apache.arrow.vector.types.pojo.Schema columns = new org.apache.arrow.vector.types.pojo.Schema(List.of(new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null)));
                TableHandle handle = connector.metadata().createTable("sales", "dropped", columns, Map.of());
                TableIdentifier identifier = TableIdentifier.of("sales", "dropped");
                Table table = catalog.loadTable(identifier);
                String metadataLocation = ((BaseTable) table).operations().current().metadataFileLocation();
                Path location = IcebergTesting.localPath(table.location());
                List<Path> before = files(location);

                BatchSink sink = connector.createSink(handle);
                try (VectorSchemaRoot batch = VectorSchemaRoot.create(columns, allocator)) {
                    for (int i = 0; i < 1_000; i++) {
                        ((BigIntVector) batch.getVector(0)).setSafe(i, i);
                    }
                    batch.setRowCount(1_000);
                    sink.append(batch);
                }
                catalog.dropTable(identifier, false);
                assertThatThrownBy(sink::commit)
                        .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                        .hasMessage("Table 'lake.sales.dropped' was dropped while the statement was writing to it");
                assertThat(files(location)).isEqualTo(before);
                catalog.registerTable(identifier, metadataLocation);
                assertThat(catalog.loadTable(identifier).snapshots()).isEmpty();
            }
            finally {
                connector.close();
            }
        }
    }

    private List<List<Object>> execute(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    private static List<Path> files(Path location)
            throws IOException
    {
        try (Stream<Path> files = Files.walk(location)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
