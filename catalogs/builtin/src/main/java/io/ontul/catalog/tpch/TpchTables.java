package io.ontul.catalog.tpch;

import static io.ontul.catalog.tpch.TpchColumnDefinition.bigint;
import static io.ontul.catalog.tpch.TpchColumnDefinition.date;
import static io.ontul.catalog.tpch.TpchColumnDefinition.decimal;
import static io.ontul.catalog.tpch.TpchColumnDefinition.integer;
import static io.ontul.catalog.tpch.TpchColumnDefinition.varchar;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.Nation;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import io.trino.tpch.Part;
import io.trino.tpch.PartGenerator;
import io.trino.tpch.PartSupplier;
import io.trino.tpch.Region;
import io.trino.tpch.Supplier;
import io.trino.tpch.SupplierGenerator;
import io.trino.tpch.TpchTable;

/**
 * The eight TPC-H tables with the columns and types of the TPC-H specification.
 */
public final class TpchTables
{
    private static final int SUPPLIERS_PER_PART = 4;

    /**
     * The number of lineitem rows depends on random line counts per order; these are the counts
     * dbgen produces. Other scales use the expected four lines per order.
     */
    private static final Map<Double, Long> LINE_ITEM_ROW_COUNTS = Map.of(
            0.01, 60_175L,
            0.1, 600_572L,
            1.0, 6_001_215L,
            10.0, 59_986_052L,
            100.0, 600_037_902L,
            1000.0, 5_999_989_709L);

    public static final TpchTableDefinition<Nation> NATION = new TpchTableDefinition<>(
            TpchTable.NATION,
            List.of(
                    bigint("n_nationkey", Nation::getNationKey),
                    varchar("n_name", 25, Nation::getName),
                    bigint("n_regionkey", Nation::getRegionKey),
                    varchar("n_comment", 152, Nation::getComment)),
            scaleFactor -> 25,
            false);

    public static final TpchTableDefinition<Region> REGION = new TpchTableDefinition<>(
            TpchTable.REGION,
            List.of(
                    bigint("r_regionkey", Region::getRegionKey),
                    varchar("r_name", 25, Region::getName),
                    varchar("r_comment", 152, Region::getComment)),
            scaleFactor -> 5,
            false);

    public static final TpchTableDefinition<Part> PART = new TpchTableDefinition<>(
            TpchTable.PART,
            List.of(
                    bigint("p_partkey", Part::getPartKey),
                    varchar("p_name", 55, Part::getName),
                    varchar("p_mfgr", 25, Part::getManufacturer),
                    varchar("p_brand", 10, Part::getBrand),
                    varchar("p_type", 25, Part::getType),
                    integer("p_size", Part::getSize),
                    varchar("p_container", 10, Part::getContainer),
                    decimal("p_retailprice", Part::getRetailPriceInCents),
                    varchar("p_comment", 23, Part::getComment)),
            scaleFactor -> scaled(PartGenerator.SCALE_BASE, scaleFactor),
            true);

    public static final TpchTableDefinition<Supplier> SUPPLIER = new TpchTableDefinition<>(
            TpchTable.SUPPLIER,
            List.of(
                    bigint("s_suppkey", Supplier::getSupplierKey),
                    varchar("s_name", 25, Supplier::getName),
                    varchar("s_address", 40, Supplier::getAddress),
                    bigint("s_nationkey", Supplier::getNationKey),
                    varchar("s_phone", 15, Supplier::getPhone),
                    decimal("s_acctbal", Supplier::getAccountBalanceInCents),
                    varchar("s_comment", 101, Supplier::getComment)),
            scaleFactor -> scaled(SupplierGenerator.SCALE_BASE, scaleFactor),
            true);

    public static final TpchTableDefinition<PartSupplier> PART_SUPPLIER = new TpchTableDefinition<>(
            TpchTable.PART_SUPPLIER,
            List.of(
                    bigint("ps_partkey", PartSupplier::getPartKey),
                    bigint("ps_suppkey", PartSupplier::getSupplierKey),
                    integer("ps_availqty", PartSupplier::getAvailableQuantity),
                    decimal("ps_supplycost", PartSupplier::getSupplyCostInCents),
                    varchar("ps_comment", 199, PartSupplier::getComment)),
            scaleFactor -> SUPPLIERS_PER_PART * scaled(PartGenerator.SCALE_BASE, scaleFactor),
            true);

    public static final TpchTableDefinition<Customer> CUSTOMER = new TpchTableDefinition<>(
            TpchTable.CUSTOMER,
            List.of(
                    bigint("c_custkey", Customer::getCustomerKey),
                    varchar("c_name", 25, Customer::getName),
                    varchar("c_address", 40, Customer::getAddress),
                    bigint("c_nationkey", Customer::getNationKey),
                    varchar("c_phone", 15, Customer::getPhone),
                    decimal("c_acctbal", Customer::getAccountBalanceInCents),
                    varchar("c_mktsegment", 10, Customer::getMarketSegment),
                    varchar("c_comment", 117, Customer::getComment)),
            scaleFactor -> scaled(CustomerGenerator.SCALE_BASE, scaleFactor),
            true);

    public static final TpchTableDefinition<Order> ORDERS = new TpchTableDefinition<>(
            TpchTable.ORDERS,
            List.of(
                    bigint("o_orderkey", Order::getOrderKey),
                    bigint("o_custkey", Order::getCustomerKey),
                    varchar("o_orderstatus", 1, order -> String.valueOf(order.getOrderStatus())),
                    decimal("o_totalprice", Order::getTotalPriceInCents),
                    date("o_orderdate", Order::getOrderDate),
                    varchar("o_orderpriority", 15, Order::getOrderPriority),
                    varchar("o_clerk", 15, Order::getClerk),
                    integer("o_shippriority", Order::getShipPriority),
                    varchar("o_comment", 79, Order::getComment)),
            scaleFactor -> scaled(OrderGenerator.SCALE_BASE, scaleFactor),
            true);

    public static final TpchTableDefinition<LineItem> LINE_ITEM = new TpchTableDefinition<>(
            TpchTable.LINE_ITEM,
            List.of(
                    bigint("l_orderkey", LineItem::getOrderKey),
                    bigint("l_partkey", LineItem::getPartKey),
                    bigint("l_suppkey", LineItem::getSupplierKey),
                    integer("l_linenumber", LineItem::getLineNumber),
                    decimal("l_quantity", lineItem -> lineItem.getQuantity() * 100),
                    decimal("l_extendedprice", LineItem::getExtendedPriceInCents),
                    decimal("l_discount", LineItem::getDiscountPercent),
                    decimal("l_tax", LineItem::getTaxPercent),
                    varchar("l_returnflag", 1, LineItem::getReturnFlag),
                    varchar("l_linestatus", 1, LineItem::getStatus),
                    date("l_shipdate", LineItem::getShipDate),
                    date("l_commitdate", LineItem::getCommitDate),
                    date("l_receiptdate", LineItem::getReceiptDate),
                    varchar("l_shipinstruct", 25, LineItem::getShipInstructions),
                    varchar("l_shipmode", 10, LineItem::getShipMode),
                    varchar("l_comment", 44, LineItem::getComment)),
            TpchTables::lineItemRowCount,
            true);

    /** In the order users expect to see them listed. */
    public static final List<TpchTableDefinition<?>> ALL = List.of(NATION, REGION, PART, SUPPLIER, PART_SUPPLIER, CUSTOMER, ORDERS, LINE_ITEM);

    private TpchTables() {}

    public static Optional<TpchTableDefinition<?>> byName(String name)
    {
        return ALL.stream().filter(table -> table.name().equals(name)).findFirst();
    }

    private static long scaled(int scaleBase, double scaleFactor)
    {
        return GenerateUtils.calculateRowCount(scaleBase, scaleFactor, 1, 1);
    }

    private static long lineItemRowCount(double scaleFactor)
    {
        Long known = LINE_ITEM_ROW_COUNTS.get(scaleFactor);
        if (known != null) {
            return known;
        }
        return 4 * scaled(OrderGenerator.SCALE_BASE, scaleFactor);
    }
}
