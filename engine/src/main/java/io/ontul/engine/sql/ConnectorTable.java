package io.ontul.engine.sql;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;

import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.Connector;
import io.ontul.spi.TableConstraints;
import io.ontul.spi.TableHandle;

/**
 * A connector's table as Calcite sees it: row type from the Arrow schema, row count statistic,
 * and what an INSERT that leaves a column out writes into it: the column's DEFAULT
 * ({@link TableConstraints#defaultValue}), cast to its type, else NULL (a NOT NULL column without
 * a default is then a validation error naming it).
 */
public final class ConnectorTable
        extends AbstractTable
        implements InitializerExpressionFactory
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

    @SuppressWarnings("deprecation")
    @Override
    public boolean isGeneratedAlways(RelOptTable table, int column)
    {
        return false;
    }

    @Override
    public ColumnStrategy generationStrategy(RelOptTable table, int column)
    {
        Field field = handle.columns().getFields().get(column);
        if (TableConstraints.defaultValue(field).isPresent()) {
            return ColumnStrategy.DEFAULT;
        }
        return field.isNullable() ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE;
    }

    @Override
    public RexNode newColumnDefaultValue(RelOptTable table, int column, InitializerContext context)
    {
        RelDataType type = table.getRowType().getFieldList().get(column).getType();
        Optional<String> sql = TableConstraints.defaultValue(handle.columns().getFields().get(column));
        if (sql.isEmpty()) {
            return context.getRexBuilder().makeNullLiteral(type);
        }
        SqlSelect select = (SqlSelect) OntulParser.parse("SELECT " + sql.get());
        RexNode value = context.convertExpression(select.getSelectList().get(0));
        return context.getRexBuilder().makeCast(type, value, true, false);
    }

    @Override
    public BiFunction<InitializerContext, RelNode, RelNode> postExpressionConversionHook()
    {
        return null;
    }

    @Override
    public RexNode newAttributeInitializer(RelDataType type, SqlFunction constructor, int attribute, List<RexNode> constructorArgs, InitializerContext context)
    {
        return context.getRexBuilder().makeNullLiteral(type);
    }
}
