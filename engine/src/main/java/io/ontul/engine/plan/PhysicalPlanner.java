package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ontul.engine.operator.aggregate.Accumulators;
import io.ontul.engine.operator.join.JoinType;
import io.ontul.engine.operator.sort.SortKey;
import io.ontul.engine.query.PlanningDeadline;
import io.ontul.engine.sql.ConnectorTable;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;

/**
 * Turns an optimized logical plan into physical nodes: pushes projections and simple
 * predicates into scans, fuses filter and projection, and places {@link GatherNode}s where a
 * parallel pipeline (scan, filter/project, join probe) meets an operator that needs all of its
 * input in one place (aggregate, sort, join build, the query result).
 */
public final class PhysicalPlanner
{
    /** The largest top-N each parallel instance computes for itself before the final one. */
    private static final long PARTIAL_TOP_N_MAX_ROWS = 1_000_000;

    private final RexBuilder rexBuilder;
    private final RelDataTypeFactory typeFactory;
    private final boolean shareCommonSubplans;
    private CommonSubplans common = CommonSubplans.none();
    private final java.util.Map<String, SharedSubplanNode> sharedNodes = new java.util.HashMap<>();

    /** A planner for queries: a subplan the query reads more than once is computed once ({@link CommonSubplans}). */
    public PhysicalPlanner(RexBuilder rexBuilder)
    {
        this(rexBuilder, true);
    }

    /**
     * @param shareCommonSubplans whether a subplan read more than once is computed once; a
     *         streaming job's plan, whose operators run incrementally on the job's own threads,
     *         plans each reading of it by itself
     */
    public PhysicalPlanner(RexBuilder rexBuilder, boolean shareCommonSubplans)
    {
        this.rexBuilder = rexBuilder;
        this.typeFactory = rexBuilder.getTypeFactory();
        this.shareCommonSubplans = shareCommonSubplans;
    }

    public PlanNode planRoot(RelNode rel)
    {
        if (shareCommonSubplans) {
            common = CommonSubplans.find(rel);
        }
        return gathered(plan(rel));
    }

    private static PlanNode gathered(PlanNode node)
    {
        return node.splittable() ? new GatherNode(node) : node;
    }

    /** Plans {@code rel}, telling a scan right below (through filters and projections) that only {@code limit} rows are needed. */
    private PlanNode planWithLimit(RelNode rel, OptionalLong limit)
    {
        ScanChain chain = ScanChain.of(rel);
        if (chain != null) {
            return scanFilterProject(chain.scan(), chain.filter(), chain.projects(), chain.rowType(), limit);
        }
        return plan(rel);
    }

    PlanNode plan(RelNode rel)
    {
        String sharedKey = common.sharedKey(rel);
        if (sharedKey == null) {
            return planOwn(rel);
        }
        SharedSubplanNode shared = sharedNodes.get(sharedKey);
        if (shared == null) {
            // numbered once planned: a shared subplan inside takes its number first
            PlanNode input = gathered(planOwn(rel));
            shared = new SharedSubplanNode(sharedNodes.size() + 1, input);
            sharedNodes.put(sharedKey, shared);
        }
        shared.addReader();
        return shared;
    }

    private PlanNode planOwn(RelNode rel)
    {
        PlanningDeadline.check();
        ScanChain chain = ScanChain.of(rel);
        if (chain != null) {
            return scanFilterProject(chain.scan(), chain.filter(), chain.projects(), chain.rowType(), OptionalLong.empty());
        }
        if (rel instanceof Project project) {
            return new FilterProjectNode(project.getRowType(), plan(project.getInput()), null, project.getProjects());
        }
        if (rel instanceof Filter filter) {
            return new FilterProjectNode(filter.getRowType(), plan(filter.getInput()), filter.getCondition(), identity(filter.getInput().getRowType()));
        }
        if (rel instanceof Aggregate original) {
            Aggregate aggregate = AggregateInputTrimmer.trimmed(original);
            PlanNode pushed = AggregationPushdown.plan(aggregate, rexBuilder);
            if (pushed != null) {
                return pushed;
            }
            PlanNode input = plan(aggregate.getInput());
            if (input.splittable() && aggregate.getAggCallList().stream().allMatch(Accumulators::supportsPartial)) {
                return partialAndFinal(aggregate, input);
            }
            return new AggregateNode(aggregate.getRowType(), gathered(input), aggregate.getGroupSet(), aggregate.getGroupSets(), aggregate.getAggCallList());
        }
        if (rel instanceof Join join) {
            return join(join);
        }
        if (rel instanceof Sort sort) {
            return sort(sort);
        }
        if (rel instanceof Union union) {
            if (!union.all) {
                throw new OntulException(ErrorCode.INTERNAL_ERROR, "Internal error (this is a bug in Ontul): UNION DISTINCT was not rewritten");
            }
            List<PlanNode> inputs = new ArrayList<>();
            for (RelNode input : union.getInputs()) {
                inputs.add(gathered(plan(input)));
            }
            return new UnionNode(union.getRowType(), inputs);
        }
        if (rel instanceof Values values) {
            return new ValuesNode(values.getRowType(), values.getTuples());
        }
        if (rel instanceof Intersect || rel instanceof Minus) {
            return SetOperationPlanning.plan(rel, this);
        }
        if (rel instanceof Window window) {
            return WindowPlanning.plan(window, this);
        }
        if (rel instanceof TableFunctionScan function) {
            if (function.getInputs().size() != 1) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "Table function not supported: " + function.getCall());
            }
            return WindowTableFunctionNode.plan(function, plan(function.getInput(0)));
        }
        if (rel instanceof Uncollect uncollect) {
            return UnnestPlanning.plan(uncollect, this);
        }
        if (rel instanceof Correlate correlate) {
            PlanNode unnest = UnnestPlanning.planCorrelate(correlate, this, typeFactory);
            if (unnest != null) {
                return unnest;
            }
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "This correlated subquery is not supported: it could not be rewritten as a join");
        }
        throw new OntulException(ErrorCode.NOT_SUPPORTED, "Query construct not supported: " + rel.getRelTypeName());
    }

    /**
     * Aggregation in two steps: each parallel pipeline aggregates its own rows (partial), then
     * the final step merges the partial results by key: in parallel when grouped, each instance
     * on the keys a {@link HashExchangeNode} sends it, else in one place. AVG travels as
     * (sum, count). Grouping sets (ROLLUP, CUBE) are aggregated partially on all their keys
     * together, and the final step, in one place, merges those partial rows into each set's
     * groups: it sees the partial groups (TPC-DS q22: 18 thousand) instead of every input row
     * once per set (2.3 million times 5).
     */
    private PlanNode partialAndFinal(Aggregate aggregate, PlanNode input)
    {
        int[] keys = aggregate.getGroupSet().toArray();
        List<RelDataType> inputTypes = input.rowType().getFieldList().stream().map(RelDataTypeField::getType).toList();
        RelDataTypeFactory.Builder partialType = typeFactory.builder();
        for (int k = 0; k < keys.length; k++) {
            partialType.add("k" + k, inputTypes.get(keys[k]));
        }
        List<AggregateNode.AccumulatorSpec> partialSpecs = new ArrayList<>();
        List<AggregateNode.AccumulatorSpec> finalSpecs = new ArrayList<>();
        // partial columns by what they compute: SUM(x) and AVG(x) in one query share x's sum (TPC-H q01)
        java.util.Map<String, Integer> partialColumns = new java.util.HashMap<>();
        RelDataType bigint = typeFactory.createSqlType(SqlTypeName.BIGINT);
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (call.getAggregation().getKind() == org.apache.calcite.sql.SqlKind.AVG) {
                int argument = call.getArgList().get(0);
                RelDataType argType = inputTypes.get(argument);
                // integers and decimals summed in 128 bits (DECIMAL(38, s)): an average does not overflow where its sum leaves 64 bits
                RelDataType sumType = typeFactory.createTypeWithNullability(SqlTypeName.EXACT_TYPES.contains(argType.getSqlTypeName())
                        ? typeFactory.createSqlType(SqlTypeName.DECIMAL, 38, argType.getSqlTypeName() == SqlTypeName.DECIMAL ? argType.getScale() : 0)
                        : typeFactory.getTypeSystem().deriveSumType(typeFactory, argType), true);
                int[] columns = {
                        partialColumn(new AggregateNode.AccumulatorSpec("partial SUM($" + argument + ")", types -> Accumulators.partialSum(argument, argType), call.filterArg),
                                sumType, keys.length, partialSpecs, partialType, partialColumns),
                        partialColumn(new AggregateNode.AccumulatorSpec("partial COUNT($" + argument + ")", types -> Accumulators.partialCount(argument), call.filterArg),
                                bigint, keys.length, partialSpecs, partialType, partialColumns)};
                finalSpecs.add(new AggregateNode.AccumulatorSpec("merge " + call, types -> Accumulators.createFinal(call, columns, types), -1));
            }
            else {
                RelDataType type = call.getAggregation().getKind() == org.apache.calcite.sql.SqlKind.COUNT ? bigint : typeFactory.createTypeWithNullability(call.getType(), true);
                int[] columns = {partialColumn(new AggregateNode.AccumulatorSpec("partial " + call, types -> Accumulators.create(call, types, new int[0], new boolean[1][0]), call.filterArg),
                        type, keys.length, partialSpecs, partialType, partialColumns)};
                finalSpecs.add(new AggregateNode.AccumulatorSpec("merge " + call, types -> Accumulators.createFinal(call, columns, types), -1));
            }
        }
        boolean[][] allKeys = new boolean[1][keys.length];
        java.util.Arrays.fill(allKeys[0], true);
        AggregateNode partial = new AggregateNode(partialType.build(), input, keys, allKeys, partialSpecs, io.ontul.engine.operator.aggregate.AggregationStep.PARTIAL, true);
        int[] finalKeys = new int[keys.length];
        for (int k = 0; k < keys.length; k++) {
            finalKeys[k] = k;
        }
        if (keys.length == 0 || aggregate.getGroupSets().size() > 1) {
            boolean[][] membership = AggregateNode.membership(keys, aggregate.getGroupSets());
            return new AggregateNode(aggregate.getRowType(), new GatherNode(partial), finalKeys, membership, finalSpecs, io.ontul.engine.operator.aggregate.AggregationStep.FINAL, false);
        }
        // grouped: the final step runs in parallel too, each instance on its share of the keys
        return new AggregateNode(aggregate.getRowType(), new HashExchangeNode(partial, finalKeys), finalKeys, allKeys, finalSpecs, io.ontul.engine.operator.aggregate.AggregationStep.FINAL, true);
    }

    /**
     * The partial column computing {@code spec} into {@code type}: one added for it, or the one an
     * earlier call added for the same (description, filter, type); a partial's description names
     * its function, DISTINCT and arguments, so equal ones compute the same.
     */
    private static int partialColumn(AggregateNode.AccumulatorSpec spec, RelDataType type, int keyCount, List<AggregateNode.AccumulatorSpec> partialSpecs,
            RelDataTypeFactory.Builder partialType, java.util.Map<String, Integer> partialColumns)
    {
        String key = spec.description() + " filter " + spec.filterColumn() + " as " + type.getFullTypeString();
        Integer existing = partialColumns.get(key);
        if (existing != null) {
            return existing;
        }
        int column = keyCount + partialSpecs.size();
        partialSpecs.add(spec);
        partialType.add("p" + column, type);
        partialColumns.put(key, column);
        return column;
    }

    PlanNode planGathered(RelNode rel)
    {
        return gathered(plan(rel));
    }

    private List<RexNode> identity(RelDataType rowType)
    {
        List<RexNode> refs = new ArrayList<>();
        for (RelDataTypeField field : rowType.getFieldList()) {
            refs.add(new RexInputRef(field.getIndex(), field.getType()));
        }
        return refs;
    }

    /** @param limit how many rows the query needs from the scan, if a LIMIT sits right above it */
    private PlanNode scanFilterProject(TableScan scan, RexNode filter, List<RexNode> projects, RelDataType outputType, OptionalLong limit)
    {
        ConnectorTable table = scan.getTable().unwrap(ConnectorTable.class);
        if (table == null) {
            throw new OntulException(ErrorCode.INTERNAL_ERROR, "Internal error (this is a bug in Ontul): unknown table " + scan.getTable().getQualifiedName());
        }
        TreeSet<Integer> used = new TreeSet<>();
        List<RexNode> all = new ArrayList<>(projects);
        if (filter != null) {
            all.add(filter);
        }
        for (RexNode node : all) {
            node.accept(new RexShuttle()
            {
                @Override
                public RexNode visitInputRef(RexInputRef ref)
                {
                    used.add(ref.getIndex());
                    return ref;
                }
            });
        }
        if (used.isEmpty()) {
            used.add(0);
        }
        List<RelDataTypeField> fields = scan.getRowType().getFieldList();
        int[] newIndex = new int[fields.size()];
        List<String> columns = new ArrayList<>();
        RelDataTypeFactory.Builder scanType = typeFactory.builder();
        for (int column : used) {
            newIndex[column] = columns.size();
            columns.add(fields.get(column).getName());
            scanType.add(fields.get(column));
        }
        RexShuttle remap = new RexShuttle()
        {
            @Override
            public RexNode visitInputRef(RexInputRef ref)
            {
                return new RexInputRef(newIndex[ref.getIndex()], ref.getType());
            }
        };
        RexNode newFilter = filter == null ? null : filter.accept(remap);
        List<RexNode> newProjects = projects.stream().map(p -> p.accept(remap)).toList();
        ScanFilters pushed = ScanFilters.of(rexBuilder, newFilter, columns);
        ScanSpec spec = new ScanSpec(columns, pushed.predicates(), pushed.disjunctions(), pushed.complete() ? limit : OptionalLong.empty());
        ScanNode scanNode = new ScanNode(scanType.build(), table.connector(), table.handle(), spec);
        boolean identity = newFilter == null && newProjects.size() == columns.size();
        for (int i = 0; identity && i < newProjects.size(); i++) {
            identity = newProjects.get(i) instanceof RexInputRef ref && ref.getIndex() == i;
        }
        if (identity) {
            return scanNode;
        }
        return new FilterProjectNode(outputType, scanNode, newFilter, newProjects);
    }

    private PlanNode join(Join join)
    {
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        List<Integer> leftKeys = new ArrayList<>();
        List<Integer> rightKeys = new ArrayList<>();
        List<Boolean> filterNulls = new ArrayList<>();
        List<RexNode> nonEqui = new ArrayList<>();
        RexNode condition = CommonConjuncts.pull(rexBuilder, join.getCondition());
        RexNode remaining = RelOptUtil.splitJoinCondition(left, right, condition, leftKeys, rightKeys, filterNulls);
        List<RexNode> residualParts = new ArrayList<>();
        if (remaining != null && !remaining.isAlwaysTrue()) {
            residualParts.add(remaining);
        }
        residualParts.addAll(nonEqui);
        int leftCount = left.getRowType().getFieldCount();
        List<Integer> keptLeft = new ArrayList<>();
        List<Integer> keptRight = new ArrayList<>();
        List<Boolean> keptNullSafe = new ArrayList<>();
        for (int i = 0; i < leftKeys.size(); i++) {
            RelDataType leftType = left.getRowType().getFieldList().get(leftKeys.get(i)).getType();
            RelDataType rightType = right.getRowType().getFieldList().get(rightKeys.get(i)).getType();
            if (compatibleKeys(leftType, rightType)) {
                keptLeft.add(leftKeys.get(i));
                keptRight.add(rightKeys.get(i));
                keptNullSafe.add(!filterNulls.get(i));
            }
            else {
                RexNode leftRef = new RexInputRef(leftKeys.get(i), leftType);
                RexNode rightRef = new RexInputRef(leftCount + rightKeys.get(i), rightType);
                residualParts.add(rexBuilder.makeCall(filterNulls.get(i)
                        ? org.apache.calcite.sql.fun.SqlStdOperatorTable.EQUALS
                        : org.apache.calcite.sql.fun.SqlStdOperatorTable.IS_NOT_DISTINCT_FROM, leftRef, rightRef));
            }
        }
        RexNode residual = residualParts.isEmpty() ? null : RexUtil.composeConjunction(rexBuilder, residualParts);
        JoinType joinType = switch (join.getJoinType()) {
            case INNER -> JoinType.INNER;
            case LEFT -> JoinType.LEFT;
            case RIGHT -> JoinType.RIGHT;
            case FULL -> JoinType.FULL;
            case SEMI -> JoinType.SEMI;
            case ANTI -> JoinType.ANTI;
            default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "Join type " + join.getJoinType() + " is not supported");
        };
        if (joinType == JoinType.INNER) {
            org.apache.calcite.rel.metadata.RelMetadataQuery metadata = join.getCluster().getMetadataQuery();
            Double leftRows = metadata.getRowCount(left);
            Double rightRows = metadata.getRowCount(right);
            if (leftRows != null && rightRows != null && leftRows < rightRows) {
                return swappedInnerJoin(join, keptLeft, keptRight, keptNullSafe, residual);
            }
        }
        if (joinType == JoinType.SEMI || joinType == JoinType.ANTI) {
            org.apache.calcite.rel.metadata.RelMetadataQuery metadata = join.getCluster().getMetadataQuery();
            Double leftRows = metadata.getRowCount(left);
            Double rightRows = metadata.getRowCount(right);
            if (leftRows != null && rightRows != null && leftRows * 4 < rightRows) {
                return swappedSemiJoin(join, joinType == JoinType.SEMI ? JoinType.RIGHT_SEMI : JoinType.RIGHT_ANTI, keptLeft, keptRight, keptNullSafe, residual);
            }
        }
        PlanNode probe = plan(left);
        PlanNode build = gathered(plan(right));
        RelDataType joinedType = join.getRowType();
        if (joinType == JoinType.SEMI || joinType == JoinType.ANTI) {
            RelDataTypeFactory.Builder builder = typeFactory.builder();
            int index = 0;
            for (RelDataTypeField field : left.getRowType().getFieldList()) {
                builder.add("l" + index++, field.getType());
            }
            for (RelDataTypeField field : right.getRowType().getFieldList()) {
                builder.add("r" + index++, field.getType());
            }
            joinedType = builder.build();
        }
        return new JoinNode(join.getRowType(), joinedType, probe, build, joinType,
                keptLeft.stream().mapToInt(Integer::intValue).toArray(),
                keptRight.stream().mapToInt(Integer::intValue).toArray(),
                toArray(keptNullSafe), residual);
    }

    /** The joined row of a join whose inputs are swapped: right fields, then left fields. */
    private RelDataType swappedRowType(Join join)
    {
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        int index = 0;
        for (RelDataTypeField field : join.getRight().getRowType().getFieldList()) {
            builder.add("r" + index++, field.getType());
        }
        for (RelDataTypeField field : join.getLeft().getRowType().getFieldList()) {
            builder.add("l" + index++, field.getType());
        }
        return builder.build();
    }

    /** Rewrites a condition over (left, right) fields to one over (right, left) fields. */
    private static RexNode swapInputs(RexNode condition, int leftCount, int rightCount)
    {
        if (condition == null) {
            return null;
        }
        return condition.accept(new RexShuttle()
        {
            @Override
            public RexNode visitInputRef(RexInputRef ref)
            {
                int i = ref.getIndex();
                return new RexInputRef(i < leftCount ? i + rightCount : i - leftCount, ref.getType());
            }
        });
    }

    /**
     * A semi or anti join whose left input is much smaller than the right: hashes the left
     * rows, streams the right input past them, then returns the left rows with (or without) a
     * match.
     */
    private PlanNode swappedSemiJoin(Join join, JoinType joinType, List<Integer> leftKeys, List<Integer> rightKeys, List<Boolean> nullSafe, RexNode residual)
    {
        int leftCount = join.getLeft().getRowType().getFieldCount();
        int rightCount = join.getRight().getRowType().getFieldCount();
        RelDataType swappedType = swappedRowType(join);
        RexNode swappedResidual = swapInputs(residual, leftCount, rightCount);
        return new JoinNode(join.getRowType(), swappedType, plan(join.getRight()), gathered(plan(join.getLeft())), joinType,
                rightKeys.stream().mapToInt(Integer::intValue).toArray(),
                leftKeys.stream().mapToInt(Integer::intValue).toArray(),
                toArray(nullSafe), swappedResidual);
    }

    /**
     * An inner join whose left input is the smaller one: builds the hash table on the left,
     * probes with the right, then restores the column order (a zero-copy projection).
     */
    private PlanNode swappedInnerJoin(Join join, List<Integer> leftKeys, List<Integer> rightKeys, List<Boolean> nullSafe, RexNode residual)
    {
        int leftCount = join.getLeft().getRowType().getFieldCount();
        int rightCount = join.getRight().getRowType().getFieldCount();
        RelDataType swappedType = swappedRowType(join);
        RexNode swappedResidual = swapInputs(residual, leftCount, rightCount);
        PlanNode swapped = new JoinNode(swappedType, swappedType, plan(join.getRight()), gathered(plan(join.getLeft())), JoinType.INNER,
                rightKeys.stream().mapToInt(Integer::intValue).toArray(),
                leftKeys.stream().mapToInt(Integer::intValue).toArray(),
                toArray(nullSafe), swappedResidual);
        List<RexNode> reorder = new ArrayList<>();
        List<RelDataTypeField> fields = swappedType.getFieldList();
        for (int i = 0; i < leftCount + rightCount; i++) {
            int from = i < leftCount ? rightCount + i : i - leftCount;
            reorder.add(new RexInputRef(from, fields.get(from).getType()));
        }
        return new FilterProjectNode(join.getRowType(), swapped, null, reorder);
    }

    private static boolean[] toArray(List<Boolean> values)
    {
        boolean[] result = new boolean[values.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = values.get(i);
        }
        return result;
    }

    private static boolean compatibleKeys(RelDataType a, RelDataType b)
    {
        SqlTypeName x = a.getSqlTypeName();
        SqlTypeName y = b.getSqlTypeName();
        if (isInteger(x) && isInteger(y)) {
            return true;
        }
        if (x != y) {
            boolean text = (x == SqlTypeName.VARCHAR || x == SqlTypeName.CHAR) && (y == SqlTypeName.VARCHAR || y == SqlTypeName.CHAR);
            return text && x == SqlTypeName.VARCHAR && y == SqlTypeName.VARCHAR;
        }
        if (x == SqlTypeName.DECIMAL) {
            return a.getScale() == b.getScale();
        }
        if (x == SqlTypeName.TIMESTAMP || x == SqlTypeName.TIMESTAMP_TZ) {
            return (a.getPrecision() > 3) == (b.getPrecision() > 3);
        }
        return x != SqlTypeName.CHAR || a.getPrecision() == b.getPrecision();
    }

    private static boolean isInteger(SqlTypeName type)
    {
        return type == SqlTypeName.TINYINT || type == SqlTypeName.SMALLINT || type == SqlTypeName.INTEGER || type == SqlTypeName.BIGINT;
    }

    private PlanNode sort(Sort sort)
    {
        long offset = sort.offset == null ? 0 : ((RexLiteral) sort.offset).getValueAs(Long.class);
        long limit = sort.fetch == null ? Long.MAX_VALUE : ((RexLiteral) sort.fetch).getValueAs(Long.class);
        OptionalLong needed = limit == Long.MAX_VALUE || offset > Long.MAX_VALUE - limit ? OptionalLong.empty() : OptionalLong.of(offset + limit);
        if (sort.getCollation().getFieldCollations().isEmpty()) {
            PlanNode input = planWithLimit(sort.getInput(), needed);
            if (needed.isPresent() && input.splittable()) {
                // each instance (thread or worker) stops after the rows the query can return
                input = LimitNode.partial(input, needed.getAsLong());
            }
            return new LimitNode(gathered(input), offset, limit);
        }
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation collation : sort.getCollation().getFieldCollations()) {
            boolean descending = collation.getDirection().isDescending();
            boolean nullsFirst = collation.nullDirection == RelFieldCollation.NullDirection.FIRST;
            keys.add(new SortKey(collation.getFieldIndex(), descending, nullsFirst));
        }
        PlanNode input = plan(sort.getInput());
        if (needed.isPresent() && needed.getAsLong() <= PARTIAL_TOP_N_MAX_ROWS && input.splittable()) {
            // each instance keeps its own best rows: only those reach the final top-N
            input = SortNode.partial(input, keys, needed.getAsLong());
        }
        return new SortNode(gathered(input), keys, offset, limit);
    }
}
