package io.ontul.engine.sql;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.sql.parser.SqlPositions;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/** The columns a connector marks hidden, as an INSERT (a statement's or a streaming job's sink) sees them. */
public final class HiddenColumns
{
    private HiddenColumns() {}

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
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, SqlPositions.prefix(column.getParserPosition())
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
