package io.ontul.engine.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.apache.calcite.tools.RelBuilder;

import io.ontul.engine.query.PlanningDeadline;
import io.ontul.engine.security.UserAccess;
import io.ontul.engine.sql.HiddenColumnValidator;
import io.ontul.engine.sql.OntulOperatorTable;
import io.ontul.engine.sql.ViewTable;
import io.ontul.engine.type.OntulTypeSystem;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * SQL query text (already parsed) to an optimized tree of Calcite logical operators: validate
 * against the catalogs, convert to relational algebra, remove subqueries and decorrelate, push
 * filters and projections down, reorder joins by connector row counts.
 * <p>
 * One instance per statement: it holds the validator, whose state belongs to the statement.
 */
public final class LogicalPlanner
{
    public static final SqlConformanceEnum CONFORMANCE = SqlConformanceEnum.LENIENT;

    /**
     * Calcite's RexSimplify folds casts of literals with Calcite's own semantics (truncating
     * CAST(2.7 AS INTEGER), upper-case booleans); the engine's kernels fold them instead.
     */
    private static final org.apache.calcite.plan.Context PLANNER_CONTEXT =
            org.apache.calcite.plan.Contexts.of(RelBuilder.Config.DEFAULT.withSimplify(false));

    private final JavaTypeFactoryImpl typeFactory = new JavaTypeFactoryImpl(OntulTypeSystem.INSTANCE);
    private final CalciteCatalogReader catalogReader;
    private final HiddenColumnValidator validator;

    /** Every rule a rewrite pass tries is a {@linkplain PlanningDeadline#check planning checkpoint}. */
    private static final org.apache.calcite.plan.RelOptListener DEADLINE_CHECKPOINT = new org.apache.calcite.plan.RelOptListener()
    {
        @Override
        public void relEquivalenceFound(RelEquivalenceEvent event) {}

        @Override
        public void ruleAttempted(RuleAttemptedEvent event)
        {
            PlanningDeadline.check();
        }

        @Override
        public void ruleProductionSucceeded(RuleProductionEvent event) {}

        @Override
        public void relDiscarded(RelDiscardedEvent event) {}

        @Override
        public void relChosen(RelChosenEvent event) {}
    };
    private final RelOptCluster cluster;
    private final UserAccess access;
    /** The views being expanded, innermost first (a view that reads itself is an error). */
    private final Deque<List<String>> expanding = new ArrayDeque<>();
    /** The scans of the views' plans, by identity: the tables the views' owners read, not the statement's user. */
    private final Set<RelNode> viewScans = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The views read by the query or view being converted, innermost first. */
    private final Deque<Set<io.ontul.engine.security.Securable>> viewsReadBy = new ArrayDeque<>();
    private final Set<String> viewsRead = new LinkedHashSet<>();
    /** The session's time zone (SET TIME ZONE), as {@code ZonedTimestamps.sessionZone} writes it. */
    private String timeZone = "UTC";

    /**
     * @param access what the statement's user may do: {@link #toOptimizedRel} checks SELECT on every
     *        table the query reads
     */
    public LogicalPlanner(SchemaPlus rootSchema, List<String> defaultPath, UserAccess access)
    {
        this.access = requireNonNull(access, "access is null");
        Properties properties = new Properties();
        properties.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        CalciteConnectionConfig config = new CalciteConnectionConfigImpl(properties);
        this.catalogReader = new CalciteCatalogReader(CalciteSchema.from(rootSchema), defaultPath, typeFactory, config);
        this.validator = newValidator(catalogReader);
        HepPlanner planner = new HepPlanner(HepProgram.builder().build(), PLANNER_CONTEXT);
        this.cluster = RelOptCluster.create(planner, new OntulRexBuilder(typeFactory));
        cluster.setMetadataProvider(JoinRowCountEstimator.provider());
        cluster.setMetadataQuerySupplier(JoinRowCountEstimator::metadataQuery);
    }

    private HiddenColumnValidator newValidator(CalciteCatalogReader reader)
    {
        return new HiddenColumnValidator(
                OntulOperatorTable.instance(),
                reader,
                typeFactory,
                SqlValidator.Config.DEFAULT
                        .withIdentifierExpansion(true)
                        .withDefaultNullCollation(NullCollation.LAST)
                        .withConformance(CONFORMANCE)
                        .withTypeCoercionFactory(io.ontul.engine.type.OntulTypeCoercion::new));
    }

    /** Plans in a session whose time zone is {@code zone} ({@link SessionTimeZone}); UTC unless set. */
    public LogicalPlanner withTimeZone(String zone)
    {
        this.timeZone = requireNonNull(zone, "zone is null");
        return this;
    }

    public SqlValidator validator()
    {
        return validator;
    }

    /** The views the queries planned so far read, directly or through other views, as {@code catalog.schema.view}. */
    public Set<String> viewsRead()
    {
        return Collections.unmodifiableSet(viewsRead);
    }

    /** The types of the {@code ?} markers of the query validated last, in marker order. */
    public List<RelDataType> parameterTypes()
    {
        return validator.markerTypes();
    }

    public JavaTypeFactoryImpl typeFactory()
    {
        return typeFactory;
    }

    /** Validates a query; returns the validated node (with identifiers expanded). */
    public SqlNode validate(SqlNode query)
    {
        return validator.validate(WindowReferenceFrames.inline(io.ontul.engine.sql.AggregateAliases.rewrite(query)));
    }

    public RelDataType validatedRowType(SqlNode validated)
    {
        return validator.getValidatedNodeType(validated);
    }

    /**
     * Converts a validated query to an optimized logical plan.
     *
     * @throws io.ontul.spi.OntulException PERMISSION_DENIED when the user may not read a table it reads
     */
    public RelRoot toOptimizedRel(SqlNode validated)
    {
        Set<io.ontul.engine.security.Securable> views = new LinkedHashSet<>();
        viewsReadBy.push(views);
        RelRoot root;
        try {
            root = converter().convertQuery(validated, false, true);
        }
        finally {
            viewsReadBy.pop();
        }
        views.addAll(TablesRead.of(root.rel, viewScans));
        access.checkSelect(views);
        RelNode rel = ValuesLiterals.coerce(withPolicies(root.rel), cluster.getRexBuilder());
        rel = SessionTimeZone.apply(rel, timeZone, cluster.getRexBuilder());
        RelBuilder relBuilder = RelFactories.LOGICAL_BUILDER.create(cluster, catalogReader);

        rel = hep(rel, false,
                CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
                CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
                CoreRules.JOIN_SUB_QUERY_TO_CORRELATE);
        rel = ExistsToSemiJoin.rewrite(rel);
        // ARRAY(SELECT ...): Calcite's subquery removal leaves a Collect, which decorrelates as an aggregate
        rel = CollectToArrayAgg.rewrite(rel, relBuilder);
        rel = DecorrelatedCollations.decorrelate(rel, plan -> RelDecorrelator.decorrelateQuery(plan, relBuilder));
        // 1200 + 11, DATE '1995-09-01' + INTERVAL '1' MONTH: literals, which scans and estimates can use
        rel = ConstantFolding.fold(rel);
        // statistical aggregates become sums and counts the aggregation operators compute
        rel = hep(rel, false, STATISTICAL_AGGREGATES);
        // before trimming, which would give each branch's copy of the common input its own columns
        rel = UnionOfAggregatesToGroupingSets.rewrite(rel, relBuilder);
        rel = new RelFieldTrimmer(null, relBuilder).trim(rel);
        rel = CommonConjuncts.pullInFilters(rel);

        rel = hep(rel, false,
                CoreRules.FILTER_INTO_JOIN,
                CoreRules.JOIN_CONDITION_PUSH,
                CoreRules.FILTER_PROJECT_TRANSPOSE,
                CoreRules.FILTER_AGGREGATE_TRANSPOSE,
                CoreRules.FILTER_SET_OP_TRANSPOSE,
                CoreRules.FILTER_MERGE,
                CoreRules.PROJECT_MERGE,
                CoreRules.PROJECT_REMOVE,
                CoreRules.AGGREGATE_PROJECT_MERGE,
                CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES,
                CoreRules.UNION_TO_DISTINCT);
        // outer joins, once the filters are down: filters carried across them, left joins that
        // cannot keep an unmatched row made inner, inner joins that shrink their input moved below them
        rel = hep(rel, false,
                OUTER_JOIN_TRANSITIVE_PREDICATES,
                NullRejectedOuterJoin.RULE,
                NullRejectedOuterJoin.THROUGH_PROJECT,
                InnerJoinBeforeOuterJoin.RULE,
                InnerJoinBeforeOuterJoin.THROUGH_FILTER,
                CoreRules.FILTER_INTO_JOIN,
                CoreRules.JOIN_CONDITION_PUSH,
                CoreRules.FILTER_PROJECT_TRANSPOSE,
                CoreRules.FILTER_AGGREGATE_TRANSPOSE,
                CoreRules.FILTER_SET_OP_TRANSPOSE,
                CoreRules.FILTER_MERGE);

        // before join ordering too: there a decorrelated subquery's aggregate still joins the outer
        // query it served, already filtered (q20: partsupp of the 'forest' parts), which the
        // order chosen next may join only after the aggregate
        rel = AggregateSemiJoinReduction.beforeJoinOrder(rel);
        rel = hep(rel, true, CoreRules.JOIN_TO_MULTI_JOIN);
        rel = hep(rel, false, GreedyJoinOrder.RULE, CoreRules.MULTI_JOIN_OPTIMIZE);
        // again: Calcite's join order may join an outer join's input with its outer join first and a
        // filtered dimension after, the shape InnerJoinBeforeOuterJoin undid before
        rel = hep(rel, false, InnerJoinBeforeOuterJoin.RULE, InnerJoinBeforeOuterJoin.THROUGH_FILTER);

        rel = hep(rel, false,
                CoreRules.FILTER_INTO_JOIN,
                CoreRules.JOIN_CONDITION_PUSH,
                CoreRules.FILTER_PROJECT_TRANSPOSE,
                CoreRules.FILTER_MERGE,
                CoreRules.PROJECT_MERGE,
                CoreRules.PROJECT_REMOVE,
                PROJECT_COLUMNS_THROUGH_JOIN,
                PROJECT_WITH_WINDOW_THROUGH_JOIN,
                CoreRules.PROJECT_MERGE);
        rel = AggregateSemiJoinReduction.afterJoinOrder(rel);
        // semi joins (EXISTS, and the reduction's above) go down to the join input their keys come from, if smaller
        rel = hep(rel, false, CoreRules.SEMI_JOIN_PROJECT_TRANSPOSE, SEMI_JOIN_TO_SMALLER_INPUT);
        rel = hep(rel, false, CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW);
        rel = new RelFieldTrimmer(null, relBuilder).trim(rel);
        return root.withRel(rel);
    }

    /**
     * A filter on the preserved side of an outer (or semi/anti) join that the join's equalities carry
     * to the other side (TPC-DS q78: {@code ss LEFT JOIN ws ON ws_sold_year = ss_sold_year ... WHERE
     * ss_sold_year = 2000} aggregates web sales of 2000 only, not of every year). Inner joins are
     * left to the join order, which sees their conditions together: inferring over long chains of
     * inner joins is what made planning 64-table joins slow.
     */
    private static final RelOptRule OUTER_JOIN_TRANSITIVE_PREDICATES = org.apache.calcite.rel.rules.JoinPushTransitivePredicatesRule.Config.DEFAULT
            .withOperandSupplier(operand -> operand.operand(org.apache.calcite.rel.core.Join.class)
                    .predicate(join -> join.getJoinType() != org.apache.calcite.rel.core.JoinRelType.INNER)
                    .anyInputs())
            .as(org.apache.calcite.rel.rules.JoinPushTransitivePredicatesRule.Config.class)
            .toRule();

    /**
     * A semi join over a join goes down to the join's input its keys come from when that input
     * has no more rows than the join's result (TPC-DS q02: the weeks of one year filter date_dim,
     * not 2.2 million sales joined with it). Not when the input is bigger: an EXISTS over the
     * sales joined with filtered dimensions (q16, q94) would probe every sale instead of the few
     * the dimensions keep.
     */
    /**
     * A projection over a join takes only the columns it reads through the join; expressions stay
     * above it, computed for the rows the join keeps rather than for every input row (TPC-H q08
     * computed a revenue for all 6 million lineitem rows to keep 44 thousand).
     */
    private static final RelOptRule PROJECT_COLUMNS_THROUGH_JOIN = org.apache.calcite.rel.rules.ProjectJoinTransposeRule.Config.DEFAULT
            .withPreserveExprCondition(expression -> false)
            .withOperandSupplier(project -> project.operand(org.apache.calcite.rel.logical.LogicalProject.class)
                    .predicate(node -> !org.apache.calcite.rex.RexOver.containsOver(node.getProjects(), null))
                    .oneInput(join -> join.operand(org.apache.calcite.rel.logical.LogicalJoin.class).anyInputs()))
            .withDescription("ProjectColumnsThroughJoin")
            .as(org.apache.calcite.rel.rules.ProjectJoinTransposeRule.Config.class)
            .toRule();

    /**
     * A projection with window functions goes through a join as Calcite's rule takes it, expressions
     * and all: kept above, they left a program that Calcite's window split rejects (MERGE's
     * per-target match count).
     */
    private static final RelOptRule PROJECT_WITH_WINDOW_THROUGH_JOIN = org.apache.calcite.rel.rules.ProjectJoinTransposeRule.Config.DEFAULT
            .withOperandSupplier(project -> project.operand(org.apache.calcite.rel.logical.LogicalProject.class)
                    .predicate(node -> org.apache.calcite.rex.RexOver.containsOver(node.getProjects(), null))
                    .oneInput(join -> join.operand(org.apache.calcite.rel.logical.LogicalJoin.class).anyInputs()))
            .withDescription("ProjectWithWindowThroughJoin")
            .as(org.apache.calcite.rel.rules.ProjectJoinTransposeRule.Config.class)
            .toRule();

    private static final RelOptRule SEMI_JOIN_TO_SMALLER_INPUT = new org.apache.calcite.rel.rules.SemiJoinJoinTransposeRule(
            org.apache.calcite.rel.rules.SemiJoinJoinTransposeRule.Config.DEFAULT.withDescription("SemiJoinToSmallerInput").as(org.apache.calcite.rel.rules.SemiJoinJoinTransposeRule.Config.class))
    {
        @Override
        public boolean matches(org.apache.calcite.plan.RelOptRuleCall call)
        {
            org.apache.calcite.rel.core.Join semiJoin = call.rel(0);
            org.apache.calcite.rel.core.Join join = call.rel(1);
            int leftWidth = join.getLeft().getRowType().getFieldCount();
            List<Integer> keys = semiJoin.analyzeCondition().leftKeys;
            if (keys.isEmpty()) {
                return false;
            }
            boolean fromLeft = keys.stream().allMatch(key -> key < leftWidth);
            boolean fromRight = keys.stream().allMatch(key -> key >= leftWidth);
            if (!fromLeft && !fromRight) {
                return false;
            }
            org.apache.calcite.rel.metadata.RelMetadataQuery mq = call.getMetadataQuery();
            Double input = mq.getRowCount(fromLeft ? join.getLeft() : join.getRight());
            Double joined = mq.getRowCount(join);
            return input != null && joined != null && input <= joined;
        }
    };

    /**
     * STDDEV, VARIANCE and COVAR in their population and sample forms, rewritten by Calcite into
     * SUM and COUNT of the arguments and their squares (and products) and arithmetic over them;
     * AVG and SUM stay as they are (the operators compute them).
     */
    private static final org.apache.calcite.plan.RelOptRule STATISTICAL_AGGREGATES = org.apache.calcite.rel.rules.AggregateReduceFunctionsRule.Config.DEFAULT
            .withFunctionsToReduce(java.util.EnumSet.of(org.apache.calcite.sql.SqlKind.STDDEV_POP, org.apache.calcite.sql.SqlKind.STDDEV_SAMP,
                    org.apache.calcite.sql.SqlKind.VAR_POP, org.apache.calcite.sql.SqlKind.VAR_SAMP,
                    org.apache.calcite.sql.SqlKind.COVAR_POP, org.apache.calcite.sql.SqlKind.COVAR_SAMP))
            .toRule();

    private SqlToRelConverter converter()
    {
        return converter(validator, catalogReader);
    }

    private SqlToRelConverter converter(SqlValidator validator, CalciteCatalogReader catalogReader)
    {
        return new SqlToRelConverter(
                this::expandView,
                validator,
                catalogReader,
                cluster,
                StandardConvertletTable.INSTANCE,
                SqlToRelConverter.config()
                        .withTrimUnusedFields(true)
                        .withExpand(false)
                        .withInSubQueryThreshold(Integer.MAX_VALUE)
                        .withRelBuilderConfigTransform(config -> config.withSimplify(false)));
    }

    /**
     * Plans a view's definition where a query reads the view ({@link ViewTable#toRel}), with the
     * creating session's catalog and schema for its unqualified names. The view's owner must be
     * allowed to read the tables (and views) the definition reads; the reading user needs SELECT
     * on the view only ({@link TablesRead} stops at the view's plan). A view that (through
     * others) reads itself, or whose definition no longer plans, fails naming the view.
     */
    private RelRoot expandView(RelDataType rowType, String definition, List<String> schemaPath, List<String> viewPath)
    {
        String name = String.join(".", viewPath);
        if (expanding.contains(viewPath)) {
            List<String> chain = new java.util.ArrayList<>();
            expanding.descendingIterator().forEachRemaining(path -> chain.add(String.join(".", path)));
            chain.add(name);
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "View '" + name + "' reads itself: " + String.join(" -> ", chain));
        }
        ViewTable table = requireNonNull(catalogReader.getTable(viewPath), "view not found").unwrap(ViewTable.class);
        io.ontul.engine.metadata.StoredView view = requireNonNull(table, "not a view").view();
        CalciteCatalogReader reader = catalogReader.withSchemaPath(schemaPath);
        HiddenColumnValidator viewValidator = newValidator(reader);
        if (!viewsReadBy.isEmpty()) {
            viewsReadBy.peek().add(io.ontul.engine.security.Securable.table(view.catalog(), view.schema(), view.name()));
        }
        Set<io.ontul.engine.security.Securable> read = new LinkedHashSet<>();
        expanding.push(viewPath);
        viewsReadBy.push(read);
        viewsRead.add(name);
        try {
            SqlNode query = ((org.apache.calcite.sql.ddl.SqlCreateView) io.ontul.engine.sql.parser.OntulParser.parse(definition)).query;
            RelRoot root = converter(viewValidator, reader).convertQuery(viewValidator.validate(WindowReferenceFrames.inline(io.ontul.engine.sql.AggregateAliases.rewrite(query))), false, true);
            read.addAll(TablesRead.of(root.rel, viewScans));
            access.owner(view.owner()).checkSelect(read);
            TablesRead.scans(root.rel, viewScans::add);
            return root;
        }
        catch (org.apache.calcite.runtime.CalciteContextException e) {
            throw viewError(name, io.ontul.engine.sql.parser.ValidationErrors.translate(e, definition));
        }
        catch (OntulException e) {
            if (e.getMessage().startsWith("View '")) {
                throw e;
            }
            throw viewError(name, e);
        }
        finally {
            expanding.pop();
            viewsReadBy.pop();
        }
    }

    private static final java.util.regex.Pattern POSITION = java.util.regex.Pattern.compile("^line (\\d+):(\\d+): ");

    /** The error planning a view's definition met, naming the view; a position is in the definition's text. */
    private static OntulException viewError(String view, OntulException error)
    {
        String message = error.getMessage();
        java.util.regex.Matcher position = POSITION.matcher(message);
        String where = "";
        if (position.find()) {
            message = message.substring(position.end());
            where = " (line " + position.group(1) + ":" + position.group(2) + " of the view's definition: SHOW CREATE VIEW " + view + ")";
        }
        return new OntulException(error.code(), "View '" + view + "' cannot be read: " + message + where, error);
    }

    /**
     * Applies the row filters and column masks of the reading user: each scan of a table with
     * some becomes {@code SELECT <columns, masked> FROM table WHERE <filters>}, planned here as if
     * the user had written it, in subqueries too. A mask's value is cast to its column's type.
     */
    private RelNode withPolicies(RelNode plan)
    {
        if (!access.hasPolicies()) {
            return plan;
        }
        return plan.accept(new org.apache.calcite.rel.RelHomogeneousShuttle()
        {
            @Override
            public RelNode visit(RelNode other)
            {
                if (other instanceof org.apache.calcite.rel.core.TableScan scan) {
                    return policyScan(scan);
                }
                RelNode visited = super.visit(other);
                org.apache.calcite.rel.RelShuttle self = this;
                return visited.accept(new org.apache.calcite.rex.RexShuttle()
                {
                    @Override
                    public org.apache.calcite.rex.RexNode visitSubQuery(org.apache.calcite.rex.RexSubQuery subQuery)
                    {
                        RelNode rewritten = subQuery.rel.accept(self);
                        return rewritten == subQuery.rel ? subQuery : subQuery.clone(rewritten);
                    }
                });
            }
        });
    }

    private RelNode policyScan(org.apache.calcite.rel.core.TableScan scan)
    {
        List<String> name = scan.getTable().getQualifiedName();
        if (name.size() < 3) {
            return scan;
        }
        io.ontul.engine.security.Securable table = io.ontul.engine.security.Securable.table(name.get(name.size() - 3), name.get(name.size() - 2), name.get(name.size() - 1));
        List<io.ontul.engine.security.Policy> policies = access.policies(table);
        if (policies.isEmpty()) {
            return scan;
        }
        List<String> columns = scan.getRowType().getFieldNames();
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            java.util.Optional<io.ontul.engine.security.Policy> mask = policies.stream()
                    .filter(policy -> policy.kind() == io.ontul.engine.security.Policy.Kind.COLUMN_MASK && policy.column().orElseThrow().equals(column))
                    .min(java.util.Comparator.comparing(io.ontul.engine.security.Policy::name));
            sql.append(i == 0 ? "" : ", ").append(mask.map(policy -> "(" + policy.expression() + ")").orElse(quoted(column))).append(" AS ").append(quoted(column));
        }
        sql.append(" FROM ").append(quoted(table.catalog())).append('.').append(quoted(table.schema())).append('.').append(quoted(table.table()));
        List<String> filters = policies.stream().filter(policy -> policy.kind() == io.ontul.engine.security.Policy.Kind.ROW_FILTER)
                .map(policy -> "(" + policy.expression() + ")").toList();
        if (!filters.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", filters));
        }
        SqlNode query = io.ontul.engine.sql.parser.OntulParser.parse(sql.toString()).accept(new org.apache.calcite.sql.util.SqlShuttle()
        {
            @Override
            public SqlNode visit(org.apache.calcite.sql.SqlCall call)
            {
                if (call.getOperator() == SqlStdOperatorTable.CURRENT_USER || call.getOperator() == SqlStdOperatorTable.USER
                        || call.getOperator() == SqlStdOperatorTable.SESSION_USER) {
                    return org.apache.calcite.sql.SqlLiteral.createCharString(access.user(), call.getParserPosition());
                }
                return super.visit(call);
            }

            @Override
            public SqlNode visit(org.apache.calcite.sql.SqlIdentifier identifier)
            {
                // the parser reads a bare CURRENT_USER as a name; a quoted "current_user" is a column
                if (identifier.isSimple() && !identifier.isComponentQuoted(0) && identifier.getSimple().equalsIgnoreCase("current_user")) {
                    return org.apache.calcite.sql.SqlLiteral.createCharString(access.user(), identifier.getParserPosition());
                }
                return identifier;
            }
        });
        RelNode policyPlan = converter().convertQuery(validator.validate(query), false, true).rel;
        List<org.apache.calcite.rex.RexNode> casts = new java.util.ArrayList<>();
        RexBuilder rexBuilder = cluster.getRexBuilder();
        boolean same = true;
        for (int i = 0; i < columns.size(); i++) {
            RelDataType target = scan.getRowType().getFieldList().get(i).getType();
            org.apache.calcite.rex.RexNode field = rexBuilder.makeInputRef(policyPlan, i);
            same &= field.getType().equals(target);
            casts.add(field.getType().equals(target) ? field : rexBuilder.makeCast(target, field, true, false));
        }
        if (same) {
            return policyPlan;
        }
        return org.apache.calcite.rel.logical.LogicalProject.create(policyPlan, List.of(), casts, scan.getRowType());
    }

    private static String quoted(String name)
    {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static RelNode hep(RelNode rel, boolean bottomUp, RelOptRule... rules)
    {
        HepProgramBuilder program = HepProgram.builder();
        if (bottomUp) {
            program.addMatchOrder(HepMatchOrder.BOTTOM_UP);
        }
        program.addRuleCollection(List.of(rules));
        HepPlanner planner = new HepPlanner(program.build(), PLANNER_CONTEXT);
        planner.addListener(DEADLINE_CHECKPOINT);
        planner.setRoot(rel);
        return planner.findBestExp();
    }
}
