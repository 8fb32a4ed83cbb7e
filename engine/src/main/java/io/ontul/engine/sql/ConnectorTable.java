package io.ontul.engine.sql;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;

import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.Connector;
import io.ontul.spi.TableHandle;

/** A connector's table as Calcite sees it: row type from the Arrow schema, row count statistic. */
public final class ConnectorTable
        extends AbstractTable
{
    private final Connector connector;
    private final TableHandle handle;

    public ConnectorTable(Connector connector, TableHandle handle)
    {
        this.connector = requireNonNull(connector, "connector is null");
        this.handle = requireNonNull(handle, "handle is null");
    }

    public Connector connector()
    {
        return connector;
    }

    public TableHandle handle()
    {
        return handle;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory)
    {
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        for (Field field : handle.columns().getFields()) {
            builder.add(field.getName(), ArrowTypes.toRelType(typeFactory, field));
        }
        return builder.build();
    }

    /** Hidden columns count as rolled up while a select list is expanded: see {@link HiddenColumnValidator}. */
    @Override
    public boolean isRolledUp(String column)
    {
        if (!HiddenColumnValidator.expandingSelectList()) {
            return false;
        }
        for (Field field : handle.columns().getFields()) {
            if (field.getName().equals(column)) {
                return "true".equals(field.getMetadata().get(TableHandle.HIDDEN_COLUMN));
            }
        }
        return false;
    }

    @Override
    public Statistic getStatistic()
    {
        List<String> columns = handle.columns().getFields().stream().map(org.apache.arrow.vector.types.pojo.Field::getName).toList();
        List<org.apache.calcite.util.ImmutableBitSet> keys = new java.util.ArrayList<>();
        for (List<String> key : handle.statistics().uniqueKeys()) {
            if (columns.containsAll(key)) {
                keys.add(org.apache.calcite.util.ImmutableBitSet.of(key.stream().map(columns::indexOf).toList()));
            }
        }
        if (handle.statistics().isKnown()) {
            return Statistics.of(handle.statistics().rowCount(), keys);
        }
        return keys.isEmpty() ? Statistics.UNKNOWN : Statistics.of((Double) null, keys, List.of(), List.of());
    }
}
