package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Collect;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code ARRAY(SELECT x FROM ... [ORDER BY ...])}, which Calcite plans as a {@link Collect} of the
 * subquery's rows, becomes {@code CASE WHEN count(*) > 0 THEN array_agg(x [ORDER BY ...]) ELSE ARRAY[] END}: the array of
 * the values in the subquery's order, empty (not NULL) when it has no rows, as PostgreSQL's. An
 * aggregate is what the decorrelator knows how to turn into a join when the subquery reads the
 * outer row. Only one-column subqueries (an array of scalars): others are refused by name.
 */
final class CollectToArrayAgg
{
    private CollectToArrayAgg() {}

    static RelNode rewrite(RelNode plan, RelBuilder relBuilder)
    {
        return PlanNodes.rewrite(plan, node -> node instanceof Collect collect ? arrayAgg(collect, relBuilder) : node);
    }

    private static RelNode arrayAgg(Collect collect, RelBuilder relBuilder)
    {
        RelNode input = collect.getInput();
        RelDataType type = collect.getRowType().getFieldList().get(0).getType();
        if (collect.getRowType().getFieldCount() != 1 || type.getSqlTypeName() != SqlTypeName.ARRAY || type.getComponentType() == null) {
            return collect;
        }
        if (input.getRowType().getFieldCount() != 1 || type.getComponentType().isStruct()) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "ARRAY(SELECT ...) of %d columns is not supported: an array holds the values of one column (arrays of rows are not supported)",
                    input.getRowType().getFieldCount());
        }
        // the subquery's ORDER BY orders the elements (a LIMIT stays a Sort below)
        RelCollation order = RelCollations.EMPTY;
        if (input instanceof Sort sort && sort.offset == null && sort.fetch == null) {
            order = sort.getCollation();
            input = sort.getInput();
        }
        RexBuilder rexBuilder = relBuilder.getRexBuilder();
        relBuilder.push(input);
        List<RexNode> orderKeys = new ArrayList<>();
        for (RelFieldCollation key : order.getFieldCollations()) {
            RexNode field = relBuilder.field(key.getFieldIndex());
            field = key.direction.isDescending() ? relBuilder.desc(field) : field;
            orderKeys.add(key.nullDirection == RelFieldCollation.NullDirection.FIRST ? relBuilder.nullsFirst(field) : relBuilder.nullsLast(field));
        }
        relBuilder.aggregate(relBuilder.groupKey(), relBuilder.aggregateCall(SqlLibraryOperators.ARRAY_AGG, relBuilder.field(0)).sort(orderKeys), relBuilder.countStar("rows"));
        // no rows: ARRAY[] (array_agg gives NULL; so does a join the decorrelator makes, where the count is NULL too)
        RexNode aggregated = relBuilder.field(0);
        RexNode empty = rexBuilder.makeCall(rexBuilder.getTypeFactory().createTypeWithNullability(aggregated.getType(), false), SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR, List.of());
        RexNode array = relBuilder.call(SqlStdOperatorTable.CASE, relBuilder.greaterThan(relBuilder.field(1), relBuilder.literal(0)), aggregated, empty);
        relBuilder.project(List.of(rexBuilder.ensureType(type, array, true)), collect.getRowType().getFieldNames());
        return relBuilder.build();
    }
}
