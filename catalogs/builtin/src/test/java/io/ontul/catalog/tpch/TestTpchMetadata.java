package io.ontul.catalog.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;

import io.ontul.spi.TableHandle;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchTable;

class TestTpchMetadata
{
    private final TpchMetadata metadata = new TpchMetadata("tpch");

    @Test
    void testListSchemasAndTables()
    {
        assertThat(metadata.listSchemas()).containsExactly("tiny", "sf1", "sf10", "sf100");
        assertThat(metadata.listTables("tiny")).containsExactly("nation", "region", "part", "supplier", "partsupp", "customer", "orders", "lineitem");
        assertThat(metadata.listTables("sf0_1")).hasSize(8);
        assertThat(metadata.listTables("nope")).isEmpty();
    }

    @Test
    void testSchemaNames()
    {
        assertThat(TpchSchemas.scaleFactor("tiny")).hasValue(0.01);
        assertThat(TpchSchemas.scaleFactor("sf1")).hasValue(1);
        assertThat(TpchSchemas.scaleFactor("sf10")).hasValue(10);
        assertThat(TpchSchemas.scaleFactor("sf100")).hasValue(100);
        assertThat(TpchSchemas.scaleFactor("sf0_1")).hasValue(0.1);
        assertThat(TpchSchemas.scaleFactor("sf0_01")).hasValue(0.01);
        assertThat(TpchSchemas.scaleFactor("sf1_5")).hasValue(1.5);
        for (String invalid : List.of("", "sf", "sf0", "sf0_0", "sf01", "sf1_", "sf1_0", "sfx", "SF1", "sf-1", "sf1.5", "tiny2", "sf100001")) {
            assertThat(TpchSchemas.scaleFactor(invalid)).as(invalid).isEmpty();
        }
        assertThat(metadata.getTable("sf0_1", "lineitem")).isPresent();
        assertThat(metadata.getTable("sf3", "orders")).isPresent();
        assertThat(metadata.getTable("nope", "lineitem")).isEmpty();
        assertThat(metadata.getTable("tiny", "nope")).isEmpty();
        assertThat(metadata.getTable("tiny", "LINEITEM")).isEmpty();
    }

    @Test
    void testHandle()
    {
        TableHandle handle = metadata.getTable("sf0_1", "orders").orElseThrow();
        assertThat(handle.qualifiedName()).isEqualTo("tpch.sf0_1.orders");
        TpchTableHandle tpchHandle = (TpchTableHandle) handle.connectorHandle();
        assertThat(tpchHandle.scaleFactor()).isEqualTo(0.1);
        assertThat(tpchHandle.table()).isSameAs(TpchTables.ORDERS);
    }

    @Test
    void testColumnsFollowTheGenerator()
    {
        for (TpchTable<?> reference : TpchTable.getTables()) {
            Map<String, Field> fields = fieldsByName(reference.getTableName());
            List<String> referenceNames = reference.getColumns().stream().map(TpchColumn::getColumnName).toList();
            assertThat(fields.keySet()).as(reference.getTableName()).containsExactlyElementsOf(referenceNames);
            for (TpchColumn<?> column : reference.getColumns()) {
                Field field = fields.get(column.getColumnName());
                assertThat(field.isNullable()).as(field.getName()).isFalse();
                assertThat(field.getType()).as(field.getName()).isEqualTo(expectedType(column.getType()));
                if (column.getType().getBase() == TpchColumnType.Base.VARCHAR) {
                    assertThat(field.getMetadata()).as(field.getName()).containsExactly(Map.entry("ontul.type", "VARCHAR(" + column.getType().getPrecision().orElseThrow() + ")"));
                }
                else {
                    assertThat(field.getMetadata()).as(field.getName()).isEmpty();
                }
            }
        }
    }

    @Test
    void testColumnTypes()
    {
        Map<String, Field> lineitem = fieldsByName("lineitem");
        ArrowType bigint = new ArrowType.Int(64, true);
        ArrowType decimal = new ArrowType.Decimal(15, 2, 128);
        assertThat(lineitem.get("l_orderkey").getType()).isEqualTo(bigint);
        assertThat(lineitem.get("l_partkey").getType()).isEqualTo(bigint);
        assertThat(lineitem.get("l_suppkey").getType()).isEqualTo(bigint);
        assertThat(lineitem.get("l_linenumber").getType()).isEqualTo(new ArrowType.Int(32, true));
        assertThat(lineitem.get("l_quantity").getType()).isEqualTo(decimal);
        assertThat(lineitem.get("l_extendedprice").getType()).isEqualTo(decimal);
        assertThat(lineitem.get("l_discount").getType()).isEqualTo(decimal);
        assertThat(lineitem.get("l_tax").getType()).isEqualTo(decimal);
        assertThat(lineitem.get("l_shipdate").getType()).isEqualTo(new ArrowType.Date(DateUnit.DAY));
        assertThat(lineitem.get("l_returnflag").getMetadata()).containsEntry("ontul.type", "VARCHAR(1)");
        assertThat(lineitem.get("l_shipmode").getMetadata()).containsEntry("ontul.type", "VARCHAR(10)");
        assertThat(lineitem.get("l_comment").getMetadata()).containsEntry("ontul.type", "VARCHAR(44)");
        assertThat(fieldsByName("customer").get("c_name").getMetadata()).containsEntry("ontul.type", "VARCHAR(25)");
        assertThat(fieldsByName("part").get("p_name").getMetadata()).containsEntry("ontul.type", "VARCHAR(55)");
        assertThat(fieldsByName("orders").get("o_orderpriority").getMetadata()).containsEntry("ontul.type", "VARCHAR(15)");
        assertThat(fieldsByName("orders").get("o_clerk").getMetadata()).containsEntry("ontul.type", "VARCHAR(15)");
        assertThat(fieldsByName("orders").get("o_shippriority").getType()).isEqualTo(new ArrowType.Int(32, true));
        assertThat(fieldsByName("partsupp").get("ps_availqty").getType()).isEqualTo(new ArrowType.Int(32, true));
        assertThat(fieldsByName("partsupp").get("ps_supplycost").getType()).isEqualTo(decimal);
        assertThat(fieldsByName("nation").get("n_regionkey").getType()).isEqualTo(bigint);
    }

    @Test
    void testStatistics()
    {
        assertRowCount("tiny", "lineitem", 60_175);
        assertRowCount("tiny", "orders", 15_000);
        assertRowCount("tiny", "customer", 1_500);
        assertRowCount("tiny", "part", 2_000);
        assertRowCount("tiny", "partsupp", 8_000);
        assertRowCount("tiny", "supplier", 100);
        assertRowCount("tiny", "nation", 25);
        assertRowCount("tiny", "region", 5);
        assertRowCount("sf1", "lineitem", 6_001_215);
        assertRowCount("sf1", "orders", 1_500_000);
        assertRowCount("sf1", "partsupp", 800_000);
        assertRowCount("sf0_1", "lineitem", 600_572);
        assertRowCount("sf10", "lineitem", 59_986_052);
        assertRowCount("sf100", "lineitem", 600_037_902);
        assertRowCount("sf100", "nation", 25);
        assertRowCount("sf100", "region", 5);
        // no recorded count at this scale: four lines per order
        assertRowCount("sf0_5", "lineitem", 3_000_000);
    }

    private void assertRowCount(String schema, String table, long expected)
    {
        assertThat(metadata.getTable(schema, table).orElseThrow().statistics().rowCount()).as(schema + "." + table).isEqualTo(expected);
    }

    private Map<String, Field> fieldsByName(String table)
    {
        Map<String, Field> fields = new LinkedHashMap<>();
        for (Field field : metadata.getTable("tiny", table).orElseThrow().columns().getFields()) {
            fields.put(field.getName(), field);
        }
        return fields;
    }

    private static ArrowType expectedType(TpchColumnType type)
    {
        return switch (type.getBase()) {
            case IDENTIFIER -> new ArrowType.Int(64, true);
            case INTEGER -> new ArrowType.Int(32, true);
            case DOUBLE -> new ArrowType.Decimal(15, 2, 128);
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case VARCHAR -> ArrowType.Utf8.INSTANCE;
        };
    }
}
