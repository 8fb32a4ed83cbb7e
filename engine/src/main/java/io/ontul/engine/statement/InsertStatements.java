package io.ontul.engine.statement;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.sql.HiddenColumns;
import io.ontul.spi.Connector;
import io.ontul.spi.TableHandle;

/** DML: INSERT INTO a table, through its connector's sink, committed at the end or not at all. */
public final class InsertStatements
{
    QueryResult insert(SqlInsert insert, StatementContext context)
    {
        SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
        TableHandle table = context.table(target);
        context.check(io.ontul.engine.security.Privilege.INSERT, io.ontul.engine.security.Securable.table(table.catalog(), table.schema(), table.table()),
                target.getParserPosition());
        Connector connector = context.connector(table.catalog(), target.getParserPosition());
        PlannedQuery planned = context.planInsert(HiddenColumns.withoutHiddenColumns(insert, table), table, target);
        long rows = context.write(table.catalog(), () -> connector.createSink(connector.metadata().getTable(table.schema(), table.table()).orElse(table)), table.columns(), planned);
        return context.updateCount(rows);
    }
}
