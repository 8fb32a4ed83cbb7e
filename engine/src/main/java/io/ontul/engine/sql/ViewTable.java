package io.ontul.engine.sql;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import io.ontul.engine.metadata.StoredView;
import io.ontul.engine.type.ArrowTypes;

/**
 * A view as Calcite sees it: the columns it was created with, and, where a query reads it, its
 * definition planned in its place ({@link RelOptTable.ToRelContext#expandView}, which the
 * planner answers), so that filters and projections of the query push through it into the
 * tables it reads. When the tables under it have changed types since, the definition's rows are
 * cast to the view's columns.
 */
public final class ViewTable
        extends AbstractTable
        implements TranslatableTable
{
    private final StoredView view;

    public ViewTable(StoredView view)
    {
        this.view = requireNonNull(view, "view is null");
    }

    public StoredView view()
    {
        return view;
    }

    /** Where the definition's unqualified names are looked up: the creating session's catalog and schema. */
    public List<String> schemaPath()
    {
        List<String> path = new ArrayList<>();
        view.defaultCatalog().ifPresent(path::add);
        if (!path.isEmpty()) {
            view.defaultSchema().ifPresent(path::add);
        }
        return path;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory)
    {
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        for (Field field : view.columns().getFields()) {
            builder.add(field.getName(), ArrowTypes.toRelType(typeFactory, field));
        }
        return builder.build();
    }

    @Override
    public Schema.TableType getJdbcTableType()
    {
        return Schema.TableType.VIEW;
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table)
    {
        RelRoot root = context.expandView(table.getRowType(), view.definition(), schemaPath(), List.of(view.catalog(), view.schema(), view.name()));
        return RelOptUtil.createCastRel(root.rel, table.getRowType(), true);
    }
}
