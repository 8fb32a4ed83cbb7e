package io.ontul.engine.statement;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlDropSchema;
import org.apache.calcite.sql.ddl.SqlDropTable;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.sql.tree.SqlAlterUser;
import io.ontul.engine.sql.tree.SqlCreateCatalog;
import io.ontul.engine.sql.tree.SqlCreateSchemaWithProperties;
import io.ontul.engine.sql.tree.SqlCreateStreamingJob;
import io.ontul.engine.sql.tree.SqlCreateUser;
import io.ontul.engine.sql.tree.SqlDropCatalog;
import io.ontul.engine.sql.tree.SqlDropStreamingJob;
import io.ontul.engine.sql.tree.SqlDropUser;
import io.ontul.engine.sql.tree.SqlExplainStatement;
import io.ontul.engine.sql.tree.SqlResetSession;
import io.ontul.engine.sql.tree.SqlSetSession;
import io.ontul.engine.sql.tree.SqlShowCatalogs;
import io.ontul.engine.sql.tree.SqlShowColumns;
import io.ontul.engine.sql.tree.SqlShowSchemas;
import io.ontul.engine.sql.tree.SqlShowStreamingJobs;
import io.ontul.engine.sql.tree.SqlShowTables;
import io.ontul.engine.sql.tree.SqlShowUsers;
import io.ontul.engine.sql.tree.SqlStreamingJobCommand;
import io.ontul.engine.sql.tree.SqlUse;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Which handler runs which statement: every statement Ontul runs is registered here, by the
 * class the parser makes of it (a subclass finds its superclass's handler), and the queries and
 * procedure calls, which share Calcite's classes, by kind.
 */
public final class StatementHandlers
{
    /** Every statement family of the engine. */
    public static final StatementHandlers STANDARD = standard();

    private final Map<Class<? extends SqlNode>, StatementHandler<? extends SqlNode>> byClass;
    private final Map<SqlKind, StatementHandler<SqlNode>> byKind;

    private StatementHandlers(Map<Class<? extends SqlNode>, StatementHandler<? extends SqlNode>> byClass, Map<SqlKind, StatementHandler<SqlNode>> byKind)
    {
        this.byClass = Map.copyOf(byClass);
        this.byKind = Map.copyOf(byKind);
    }

    private static StatementHandlers standard()
    {
        Builder statements = new Builder();

        QueryStatements queries = new QueryStatements();
        for (SqlKind kind : SqlKind.QUERY) {
            statements.kind(kind, queries::query);
        }
        statements.add(SqlExplainStatement.class, queries::explain);
        statements.add(SqlExplain.class, queries::explain);

        statements.add(SqlInsert.class, new InsertStatements()::insert);
        RowLevelStatements rowLevel = new RowLevelStatements();
        statements.add(org.apache.calcite.sql.SqlDelete.class, rowLevel::delete);
        statements.add(org.apache.calcite.sql.SqlUpdate.class, rowLevel::update);
        statements.add(io.ontul.engine.sql.tree.SqlMergeStatement.class, rowLevel::merge);

        TableStatements tables = new TableStatements();
        statements.add(SqlCreateTable.class, tables::createTable);
        statements.add(SqlDropTable.class, tables::dropTable);
        statements.add(SqlCreateSchemaWithProperties.class, tables::createSchema);
        statements.add(SqlDropSchema.class, tables::dropSchema);
        statements.add(io.ontul.engine.sql.tree.SqlCreateIndex.class, tables::createIndex);
        statements.add(io.ontul.engine.sql.tree.SqlDropIndex.class, tables::dropIndex);

        ViewStatements views = new ViewStatements();
        statements.add(org.apache.calcite.sql.ddl.SqlCreateView.class, views::create);
        statements.add(org.apache.calcite.sql.ddl.SqlDropView.class, views::drop);
        statements.add(io.ontul.engine.sql.tree.SqlShowCreateView.class, views::showCreate);

        CatalogStatements catalogs = new CatalogStatements();
        statements.add(SqlCreateCatalog.class, catalogs::createCatalog);
        statements.add(SqlDropCatalog.class, catalogs::dropCatalog);
        statements.add(SqlShowCatalogs.class, catalogs::showCatalogs);
        statements.add(SqlShowSchemas.class, catalogs::showSchemas);
        statements.add(SqlShowTables.class, catalogs::showTables);
        statements.add(SqlShowColumns.class, catalogs::showColumns);
        statements.add(SqlDescribeTable.class, catalogs::describeTable);

        UserStatements users = new UserStatements();
        statements.add(SqlCreateUser.class, users::create);
        statements.add(SqlAlterUser.class, users::alter);
        statements.add(SqlDropUser.class, users::drop);
        statements.add(SqlShowUsers.class, users::show);

        AccessStatements access = new AccessStatements();
        statements.add(io.ontul.engine.sql.tree.SqlCreateRole.class, access::createRole);
        statements.add(io.ontul.engine.sql.tree.SqlDropRole.class, access::dropRole);
        statements.add(io.ontul.engine.sql.tree.SqlGrantRoles.class, access::grantRoles);
        statements.add(io.ontul.engine.sql.tree.SqlGrantPrivileges.class, access::grantPrivileges);
        statements.add(io.ontul.engine.sql.tree.SqlShowGrants.class, access::showGrants);
        statements.add(io.ontul.engine.sql.tree.SqlShowRoles.class, access::showRoles);
        statements.add(io.ontul.engine.sql.tree.SqlCreatePolicy.class, access::createPolicy);
        statements.add(io.ontul.engine.sql.tree.SqlDropPolicy.class, access::dropPolicy);
        statements.add(io.ontul.engine.sql.tree.SqlShowPolicies.class, access::showPolicies);

        StreamingJobStatements jobs = new StreamingJobStatements();
        statements.add(SqlCreateStreamingJob.class, jobs::create);
        statements.add(SqlDropStreamingJob.class, jobs::drop);
        statements.add(SqlShowStreamingJobs.class, jobs::show);
        statements.add(SqlStreamingJobCommand.class, jobs::command);
        statements.add(io.ontul.engine.sql.tree.SqlAlterStreamingJob.class, jobs::alter);

        SessionStatements session = new SessionStatements();
        statements.add(SqlSetSession.class, session::set);
        statements.add(SqlResetSession.class, session::reset);
        statements.add(SqlUse.class, session::use);

        statements.kind(SqlKind.PROCEDURE_CALL, new ProcedureStatements()::call);
        return statements.build();
    }

    /**
     * Runs the statement with its handler.
     *
     * @throws OntulException NOT_SUPPORTED for a statement no handler runs
     */
    public QueryResult execute(SqlNode statement, StatementContext context)
    {
        for (Class<?> type = statement.getClass(); type != null && SqlNode.class.isAssignableFrom(type); type = type.getSuperclass()) {
            StatementHandler<? extends SqlNode> handler = byClass.get(type);
            if (handler != null) {
                return run(handler, statement, context);
            }
        }
        StatementHandler<SqlNode> handler = byKind.get(statement.getKind());
        if (handler != null) {
            return handler.execute(statement, context);
        }
        throw new OntulException(ErrorCode.NOT_SUPPORTED, StatementContext.position(statement.getParserPosition()) + "Statement is not supported: " + statement.getKind());
    }

    /** The statement classes registered, for tests and documentation. */
    public List<Class<? extends SqlNode>> statementClasses()
    {
        return List.copyOf(byClass.keySet());
    }

    @SuppressWarnings("unchecked")
    private static <T extends SqlNode> QueryResult run(StatementHandler<T> handler, SqlNode statement, StatementContext context)
    {
        // registered by the statement's own class or a superclass of it
        return handler.execute((T) statement, context);
    }

    private static final class Builder
    {
        private final Map<Class<? extends SqlNode>, StatementHandler<? extends SqlNode>> byClass = new LinkedHashMap<>();
        private final Map<SqlKind, StatementHandler<SqlNode>> byKind = new LinkedHashMap<>();

        <T extends SqlNode> void add(Class<T> type, StatementHandler<T> handler)
        {
            if (byClass.putIfAbsent(type, handler) != null) {
                throw new IllegalStateException("Two handlers for " + type.getSimpleName());
            }
        }

        void kind(SqlKind kind, StatementHandler<SqlNode> handler)
        {
            if (byKind.putIfAbsent(kind, handler) != null) {
                throw new IllegalStateException("Two handlers for statements of kind " + kind);
            }
        }

        StatementHandlers build()
        {
            return new StatementHandlers(byClass, byKind);
        }
    }
}
