package io.ontul.engine.statement;

import static io.ontul.engine.statement.StatementContext.position;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlShuttle;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.operator.write.ChangedRowsSink;
import io.ontul.engine.plan.LogicalPlanner;
import io.ontul.engine.security.Privilege;
import io.ontul.engine.security.Securable;
import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.engine.sql.tree.SqlMergeStatement;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * DELETE, UPDATE and MERGE, in every catalog that can replace a table's rows in one step
 * ({@link Connector#createOverwriteSink}). Each becomes one query over the table (and MERGE's
 * source) returning every row the table will hold, changed or not, and those it drops, with what
 * happens to each ({@link ChangedRowsSink}); the connector swaps the rows in with one commit, so a
 * statement that fails anywhere changes nothing. The query is a template whose placeholders are
 * the user's own expressions, which keep their positions for error messages; every value written
 * is cast to its column's type.
 * <p>
 * Privileges: DELETE needs DELETE on the table, UPDATE needs UPDATE, MERGE those of its clauses
 * (UPDATE, DELETE, INSERT); all need SELECT on the table (the statement reads it) and on what a
 * condition or MERGE's source reads. The update count is the number of rows deleted, updated, or
 * (MERGE) inserted, updated and deleted.
 */
final class RowLevelStatements
{
    QueryResult delete(SqlDelete delete, StatementContext context)
    {
        SqlIdentifier target = (SqlIdentifier) delete.getTargetTable();
        TableHandle table = context.table(target);
        Template template = new Template(table, delete.getAlias());
        String action = delete.getCondition() == null
                ? String.valueOf(ChangedRowsSink.REMOVE)
                : "CASE WHEN (" + template.placeholder(delete.getCondition()) + ") IS TRUE THEN " + ChangedRowsSink.REMOVE + " ELSE " + ChangedRowsSink.KEEP + " END";
        List<String> select = new ArrayList<>();
        for (Field column : table.columns().getFields()) {
            select.add(template.column(column.getName()));
        }
        select.add(action + " AS \"$action\"");
        String sql = "SELECT " + String.join(", ", select) + " FROM " + template.targetRelation();
        return write(context, target, table, List.of(Privilege.DELETE), template.query(sql), false);
    }

    QueryResult update(SqlUpdate update, StatementContext context)
    {
        SqlIdentifier target = (SqlIdentifier) update.getTargetTable();
        TableHandle table = context.table(target);
        Template template = new Template(table, update.getAlias());
        Map<String, SqlNode> assignments = assignments(table, update.getTargetColumnList(), update.getSourceExpressionList());
        String condition = update.getCondition() == null ? null : "(" + template.placeholder(update.getCondition()) + ") IS TRUE";
        LogicalPlanner planner = context.planner();
        List<String> select = new ArrayList<>();
        for (Field column : table.columns().getFields()) {
            SqlNode value = assignments.get(column.getName());
            if (value == null) {
                select.add(template.column(column.getName()));
                continue;
            }
            String cast = template.placeholder(cast(value, column, planner));
            select.add(condition == null ? cast + " AS " + quoted(column.getName())
                    : "CASE WHEN " + condition + " THEN " + cast + " ELSE " + template.qualified(column.getName()) + " END AS " + quoted(column.getName()));
        }
        select.add((condition == null ? String.valueOf(ChangedRowsSink.CHANGE)
                : "CASE WHEN " + condition + " THEN " + ChangedRowsSink.CHANGE + " ELSE " + ChangedRowsSink.KEEP + " END") + " AS \"$action\"");
        String sql = "SELECT " + String.join(", ", select) + " FROM " + template.targetRelation();
        return write(context, target, table, List.of(Privilege.UPDATE), template.query(sql), false);
    }

    /**
     * The target and the source joined FULL OUTER on the condition; a row with both sides is
     * matched, one with the target only kept as it is, one with the source only a candidate for
     * INSERT. The first clause whose condition holds applies to a row.
     */
    QueryResult merge(SqlMergeStatement merge, StatementContext context)
    {
        SqlIdentifier target = merge.target();
        TableHandle table = context.table(target);
        Template template = new Template(table, merge.alias().orElse(null));
        SqlNode sourceRelation = merge.source();
        String sourceAlias;
        if (sourceRelation.getKind() == SqlKind.AS) {
            SqlBasicCall as = (SqlBasicCall) sourceRelation;
            sourceRelation = as.operand(0);
            sourceAlias = ((SqlIdentifier) as.operand(1)).getSimple();
        }
        else if (sourceRelation instanceof SqlIdentifier identifier) {
            sourceAlias = identifier.names.get(identifier.names.size() - 1);
        }
        else {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(sourceRelation.getParserPosition()) + "MERGE's source needs a name: USING (...) AS name");
        }
        if (sourceAlias.equals(template.alias)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(merge.source().getParserPosition())
                    + "MERGE's source and target are both named '" + sourceAlias + "': give one an alias");
        }
        LogicalPlanner planner = context.planner();
        String targetRow = quoted(template.alias) + ".\"$row\"";
        String matched = targetRow + " IS NOT NULL AND " + quoted(sourceAlias) + ".\"$present\" IS NOT NULL";
        List<Field> fields = table.columns().getFields();
        Set<Privilege> privileges = new LinkedHashSet<>();

        // per column: the branches of matched rows, then those of source rows inserted
        List<List<String>> matchedBranches = new ArrayList<>();
        List<List<String>> insertBranches = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            matchedBranches.add(new ArrayList<>());
            insertBranches.add(new ArrayList<>());
        }
        List<String> matchedActions = new ArrayList<>();
        List<String> insertActions = new ArrayList<>();
        for (SqlMergeStatement.WhenClause clause : merge.clauses()) {
            String when = clause.condition().map(condition -> "(" + template.placeholder(condition) + ") IS TRUE").orElse("TRUE");
            switch (clause.action()) {
                case UPDATE -> {
                    requireMatched(clause, true, "UPDATE");
                    privileges.add(Privilege.UPDATE);
                    Map<String, SqlNode> assignments = assignments(table, clause.columns(), clause.values());
                    for (int i = 0; i < fields.size(); i++) {
                        SqlNode value = assignments.get(fields.get(i).getName());
                        matchedBranches.get(i).add("WHEN " + when + " THEN "
                                + (value == null ? template.qualified(fields.get(i).getName()) : template.placeholder(cast(value, fields.get(i), planner))));
                    }
                    matchedActions.add("WHEN " + when + " THEN " + ChangedRowsSink.CHANGE);
                }
                case DELETE -> {
                    requireMatched(clause, true, "DELETE");
                    privileges.add(Privilege.DELETE);
                    for (int i = 0; i < fields.size(); i++) {
                        matchedBranches.get(i).add("WHEN " + when + " THEN " + template.qualified(fields.get(i).getName()));
                    }
                    matchedActions.add("WHEN " + when + " THEN " + ChangedRowsSink.REMOVE);
                }
                case INSERT -> {
                    requireMatched(clause, false, "INSERT");
                    privileges.add(Privilege.INSERT);
                    Map<String, SqlNode> values = insertValues(table, clause);
                    for (int i = 0; i < fields.size(); i++) {
                        SqlNode value = values.get(fields.get(i).getName());
                        insertBranches.get(i).add("WHEN " + when + " THEN "
                                + (value == null ? "NULL" : template.placeholder(cast(value, fields.get(i), planner))));
                    }
                    insertActions.add("WHEN " + when + " THEN " + ChangedRowsSink.CHANGE);
                }
            }
        }
        List<String> select = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            String column = template.qualified(fields.get(i).getName());
            StringBuilder value = new StringBuilder("CASE");
            if (!matchedBranches.get(i).isEmpty()) {
                value.append(" WHEN ").append(matched).append(" THEN CASE ").append(String.join(" ", matchedBranches.get(i))).append(" ELSE ").append(column).append(" END");
            }
            if (!insertBranches.get(i).isEmpty()) {
                value.append(" WHEN ").append(targetRow).append(" IS NULL THEN CASE ").append(String.join(" ", insertBranches.get(i))).append(" END");
            }
            value.append(" ELSE ").append(column).append(" END");
            select.add("CAST(" + value + " AS " + typeName(fields.get(i), planner) + ") AS " + quoted(fields.get(i).getName()));
        }
        select.add("CASE"
                + (matchedActions.isEmpty() ? "" : " WHEN " + matched + " THEN CASE " + String.join(" ", matchedActions) + " ELSE " + ChangedRowsSink.KEEP + " END")
                + " WHEN " + targetRow + " IS NOT NULL THEN " + ChangedRowsSink.KEEP
                + (insertActions.isEmpty() ? "" : " ELSE CASE " + String.join(" ", insertActions) + " ELSE " + ChangedRowsSink.DISCARD + " END")
                + (insertActions.isEmpty() ? " ELSE " + ChangedRowsSink.DISCARD : "")
                + " END AS \"$action\"");
        select.add("CASE WHEN " + targetRow + " IS NULL THEN 0 ELSE COUNT(" + quoted(sourceAlias) + ".\"$present\") OVER (PARTITION BY " + targetRow + ") END AS \"$matches\"");
        String sql = "SELECT " + String.join(", ", select)
                + " FROM (SELECT *, ROW_NUMBER() OVER () AS \"$row\" FROM " + template.targetRelation() + ") AS " + quoted(template.alias)
                + " FULL OUTER JOIN (SELECT *, TRUE AS \"$present\" FROM " + template.placeholder(sourceRelation) + ") AS " + quoted(sourceAlias)
                + " ON " + template.placeholder(merge.condition());
        return write(context, target, table, List.copyOf(privileges), template.query(sql), true);
    }

    private static void requireMatched(SqlMergeStatement.WhenClause clause, boolean matched, String action)
    {
        if (clause.matched() != matched) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(clause.pos()) + (matched
                    ? "WHEN NOT MATCHED can only INSERT (there is no target row to " + action + ")"
                    : "WHEN MATCHED can only UPDATE or DELETE (the row exists already)"));
        }
    }

    /** Column name to the value an INSERT clause gives it; columns it leaves out are NULL. */
    private static Map<String, SqlNode> insertValues(TableHandle table, SqlMergeStatement.WhenClause clause)
    {
        List<Field> fields = table.columns().getFields();
        SqlNodeList columns = clause.columns();
        if (columns.isEmpty()) {
            if (clause.values().size() != fields.size()) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(clause.pos()) + "INSERT gives " + clause.values().size()
                        + " values for the " + fields.size() + " columns of table '" + table.qualifiedName() + "'");
            }
            SqlNodeList named = new SqlNodeList(clause.pos());
            fields.forEach(field -> named.add(new SqlIdentifier(field.getName(), clause.pos())));
            columns = named;
        }
        else if (columns.size() != clause.values().size()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(clause.pos()) + "INSERT names " + columns.size() + " columns but gives " + clause.values().size() + " values");
        }
        return assignments(table, columns, clause.values());
    }

    /** Column name to its new value, each column of the table at most once. */
    private static Map<String, SqlNode> assignments(TableHandle table, SqlNodeList columns, SqlNodeList values)
    {
        Set<String> names = new LinkedHashSet<>();
        table.columns().getFields().forEach(field -> names.add(field.getName()));
        Map<String, SqlNode> assignments = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            SqlIdentifier column = (SqlIdentifier) columns.get(i);
            String name = column.names.get(column.names.size() - 1);
            if (!names.contains(name)) {
                throw new OntulException(ErrorCode.NOT_FOUND, position(column.getParserPosition()) + "Column '" + name + "' does not exist in table '" + table.qualifiedName() + "'");
            }
            if (assignments.put(name, values.get(i)) != null) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(column.getParserPosition()) + "Column '" + name + "' is given two values");
            }
        }
        return assignments;
    }

    /** {@code CAST(value AS the column's type)}, at the value's position (a type error points at the value). */
    private static SqlNode cast(SqlNode value, Field column, LogicalPlanner planner)
    {
        RelDataType type = ArrowTypes.toRelType(planner.typeFactory(), column);
        return SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value, SqlTypeUtil.convertTypeToSpec(type).withNullable(true));
    }

    private static String typeName(Field column, LogicalPlanner planner)
    {
        return ArrowTypes.sqlName(ArrowTypes.toRelType(planner.typeFactory(), column));
    }

    private static QueryResult write(StatementContext context, SqlIdentifier target, TableHandle table, List<Privilege> privileges, SqlNode query, boolean countsMatches)
    {
        Securable securable = Securable.table(table.catalog(), table.schema(), table.table());
        for (Privilege privilege : privileges) {
            context.check(privilege, securable, target.getParserPosition());
        }
        Connector connector = context.connector(table.catalog(), target.getParserPosition());
        PlannedQuery planned = context.plan(query);
        List<Field> fields = new ArrayList<>(table.columns().getFields());
        fields.addAll(planned.schema().getFields().subList(fields.size(), planned.schema().getFields().size()));
        long changed = context.write(table.catalog(), () -> new ChangedRowsSink(
                connector.createOverwriteSink(table), table.columns().getFields().size(), countsMatches, table.qualifiedName(), context.engine().rootAllocator()),
                new Schema(fields), planned);
        return context.updateCount(changed);
    }

    private static String quoted(String name)
    {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /**
     * A query written as text around the user's expressions: each expression is a placeholder
     * name in the text, replaced by the expression's own node once the text is parsed.
     */
    private static final class Template
    {
        private final TableHandle table;
        private final String alias;
        private final boolean aliased;
        private final Map<String, SqlNode> placeholders = new HashMap<>();

        Template(TableHandle table, SqlIdentifier alias)
        {
            this.table = table;
            this.aliased = alias != null;
            this.alias = alias == null ? table.table() : alias.getSimple();
        }

        String placeholder(SqlNode node)
        {
            String name = "$expression" + placeholders.size();
            placeholders.put(name, node);
            return quoted(name);
        }

        String qualified(String column)
        {
            return quoted(alias) + "." + quoted(column);
        }

        String column(String column)
        {
            return qualified(column) + " AS " + quoted(column);
        }

        String targetRelation()
        {
            return quoted(table.catalog()) + "." + quoted(table.schema()) + "." + quoted(table.table()) + (aliased ? " AS " + quoted(alias) : "");
        }

        SqlNode query(String sql)
        {
            return OntulParser.parse(sql).accept(new SqlShuttle()
            {
                @Override
                public SqlNode visit(SqlIdentifier identifier)
                {
                    SqlNode replacement = identifier.isSimple() ? placeholders.get(identifier.getSimple()) : null;
                    return replacement == null ? identifier : replacement;
                }
            });
        }
    }
}
