package io.ontul.catalog.tpcds;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.catalog.tpch.TpchColumnDefinition;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import io.trino.tpcds.column.ColumnType;

/**
 * The 24 TPC-DS tables as the engine sees them: the generator's column types as Arrow types
 * (identifiers BIGINT, integers INTEGER, DECIMAL(p,s), CHAR(n) and VARCHAR(n) as text with their
 * length, DATE, TIME), and the specification's primary keys (NOT NULL).
 */
final class TpcdsTables
{
    /** The primary key of each table, from the TPC-DS specification. */
    private static final Map<String, List<String>> PRIMARY_KEYS = Map.ofEntries(
            Map.entry("call_center", List.of("cc_call_center_sk")),
            Map.entry("catalog_page", List.of("cp_catalog_page_sk")),
            Map.entry("catalog_returns", List.of("cr_item_sk", "cr_order_number")),
            Map.entry("catalog_sales", List.of("cs_item_sk", "cs_order_number")),
            Map.entry("customer", List.of("c_customer_sk")),
            Map.entry("customer_address", List.of("ca_address_sk")),
            Map.entry("customer_demographics", List.of("cd_demo_sk")),
            Map.entry("date_dim", List.of("d_date_sk")),
            Map.entry("household_demographics", List.of("hd_demo_sk")),
            Map.entry("income_band", List.of("ib_income_band_sk")),
            Map.entry("inventory", List.of("inv_date_sk", "inv_item_sk", "inv_warehouse_sk")),
            Map.entry("item", List.of("i_item_sk")),
            Map.entry("promotion", List.of("p_promo_sk")),
            Map.entry("reason", List.of("r_reason_sk")),
            Map.entry("ship_mode", List.of("sm_ship_mode_sk")),
            Map.entry("store", List.of("s_store_sk")),
            Map.entry("store_returns", List.of("sr_item_sk", "sr_ticket_number")),
            Map.entry("store_sales", List.of("ss_item_sk", "ss_ticket_number")),
            Map.entry("time_dim", List.of("t_time_sk")),
            Map.entry("warehouse", List.of("w_warehouse_sk")),
            Map.entry("web_page", List.of("wp_web_page_sk")),
            Map.entry("web_returns", List.of("wr_item_sk", "wr_order_number")),
            Map.entry("web_sales", List.of("ws_item_sk", "ws_order_number")),
            Map.entry("web_site", List.of("web_site_sk")));

    /** The tables, by name. */
    static final List<Table> ALL = Table.getBaseTables().stream().filter(table -> PRIMARY_KEYS.containsKey(table.getName())).toList();

    private TpcdsTables() {}

    static Optional<Table> byName(String name)
    {
        return ALL.stream().filter(table -> table.getName().equals(name)).findFirst();
    }

    static List<String> primaryKey(Table table)
    {
        return PRIMARY_KEYS.get(table.getName());
    }

    static Schema schema(Table table)
    {
        List<String> key = primaryKey(table);
        List<Field> fields = new ArrayList<>();
        for (Column column : table.getColumns()) {
            ArrowType type = arrowType(column.getType());
            Map<String, String> metadata = textLength(column.getType());
            fields.add(new Field(column.getName(), new FieldType(!key.contains(column.getName()), type, null, metadata), null));
        }
        return new Schema(fields);
    }

    private static ArrowType arrowType(ColumnType type)
    {
        return switch (type.getBase()) {
            case IDENTIFIER -> new ArrowType.Int(64, true);
            case INTEGER -> new ArrowType.Int(32, true);
            case DECIMAL -> new ArrowType.Decimal(type.getPrecision().orElseThrow(), type.getScale().orElseThrow(), 128);
            case VARCHAR, CHAR -> ArrowType.Utf8.INSTANCE;
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case TIME -> new ArrowType.Time(TimeUnit.MILLISECOND, 32);
        };
    }

    /** A declared text length, in the field metadata the engine reads it from ({@code ontul.type}). */
    private static Map<String, String> textLength(ColumnType type)
    {
        return switch (type.getBase()) {
            case VARCHAR -> Map.of(TpchColumnDefinition.TYPE_METADATA_KEY, "VARCHAR(" + type.getPrecision().orElseThrow() + ")");
            case CHAR -> Map.of(TpchColumnDefinition.TYPE_METADATA_KEY, "CHAR(" + type.getPrecision().orElseThrow() + ")");
            default -> Map.of();
        };
    }
}
