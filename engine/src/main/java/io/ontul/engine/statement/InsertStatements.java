package io.ontul.engine.statement;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.api.QueryResult;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/** DML: INSERT INTO a table, through its connector's sink, committed at the end or not at all. */
public final class InsertStatements
{
    QueryResult insert(SqlInsert insert, StatementContext context)
    {
        SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
        TableHandle table = context.table(target);
        Connector connector = context.connector(table.catalog(), target.getParserPosition());
        PlannedQuery planned = context.planInsert(withoutHiddenColumns(insert, table), table, target);
        long rows = context.write(() -> connector.createSink(connector.metadata().getTable(table.schema(), table.table()).orElse(table)), table.columns(), planned);
        return context.updateCount(rows);
    }

    /**
     * Hidden columns (Kafka's {@code _offset}, say) are never written: an INSERT without a column
     * list targets the visible columns (the hidden ones reach the sink as NULL), and one that
     * names a hidden column fails.
     */
    public static SqlInsert withoutHiddenColumns(SqlInsert insert, TableHandle table)
    {
        List<Field> hidden = table.columns().getFields().stream()
                .filter(field -> "true".equals(field.getMetadata().get(TableHandle.HIDDEN_COLUMN)))
                .toList();
        if (hidden.isEmpty()) {
            return insert;
        }
        SqlNodeList columns = insert.getTargetColumnList();
        if (columns != null) {
            for (SqlNode column : columns) {
                String name = ((SqlIdentifier) column).getSimple();
                if (hidden.stream().anyMatch(field -> field.getName().equals(name))) {
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, StatementContext.position(column.getParserPosition())
                            + "Column '" + name + "' of table '" + table.qualifiedName() + "' is hidden and cannot be written");
                }
            }
            return insert;
        }
        List<SqlNode> visible = new ArrayList<>();
        for (Field field : table.columns().getFields()) {
            if (!hidden.contains(field)) {
                visible.add(new SqlIdentifier(field.getName(), SqlParserPos.ZERO));
            }
        }
        return new SqlInsert(insert.getParserPosition(), (SqlNodeList) insert.getOperandList().get(0), insert.getTargetTable(), insert.getSource(),
                new SqlNodeList(visible, SqlParserPos.ZERO));
    }
}
