package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code MERGE INTO target [[AS] alias] USING source ON condition} followed by clauses
 * {@code WHEN MATCHED [AND condition] THEN UPDATE SET column = value, ... | DELETE} and
 * {@code WHEN NOT MATCHED [AND condition] THEN INSERT [(columns)] VALUES (values)}, as SQL:2008
 * and Trino have it (Calcite's own MERGE takes one clause of each kind, without conditions).
 */
public final class SqlMergeStatement
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("MERGE", SqlKind.OTHER);

    public enum Action
    {
        UPDATE, DELETE, INSERT
    }

    /**
     * One WHEN clause: for UPDATE, {@code columns} and {@code values} are the SET pairs; for
     * INSERT, the columns (empty: all the table's, in order) and the VALUES; for DELETE, empty.
     */
    public record WhenClause(SqlParserPos pos, boolean matched, Optional<SqlNode> condition, Action action, SqlNodeList columns, SqlNodeList values)
    {
        public WhenClause
        {
            requireNonNull(pos, "pos is null");
            requireNonNull(condition, "condition is null");
            requireNonNull(action, "action is null");
            requireNonNull(columns, "columns is null");
            requireNonNull(values, "values is null");
        }
    }

    private final SqlIdentifier target;
    private final Optional<SqlIdentifier> alias;
    private final SqlNode source;
    private final SqlNode condition;
    private final List<WhenClause> clauses;

    public SqlMergeStatement(SqlParserPos pos, SqlIdentifier target, SqlIdentifier alias, SqlNode source, SqlNode condition, List<WhenClause> clauses)
    {
        super(pos);
        this.target = requireNonNull(target, "target is null");
        this.alias = Optional.ofNullable(alias);
        this.source = requireNonNull(source, "source is null");
        this.condition = requireNonNull(condition, "condition is null");
        this.clauses = List.copyOf(clauses);
    }

    public SqlIdentifier target()
    {
        return target;
    }

    public Optional<SqlIdentifier> alias()
    {
        return alias;
    }

    public SqlNode source()
    {
        return source;
    }

    public SqlNode condition()
    {
        return condition;
    }

    public List<WhenClause> clauses()
    {
        return clauses;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        List<SqlNode> operands = new ArrayList<>(List.of(target, source, condition));
        alias.ifPresent(operands::add);
        return operands;
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("MERGE INTO");
        target.unparse(writer, 0, 0);
        alias.ifPresent(name -> {
            writer.keyword("AS");
            name.unparse(writer, 0, 0);
        });
        writer.keyword("USING");
        source.unparse(writer, 0, 0);
        writer.keyword("ON");
        condition.unparse(writer, 0, 0);
        for (WhenClause clause : clauses) {
            writer.keyword(clause.matched() ? "WHEN MATCHED" : "WHEN NOT MATCHED");
            clause.condition().ifPresent(when -> {
                writer.keyword("AND");
                when.unparse(writer, 0, 0);
            });
            writer.keyword("THEN");
            switch (clause.action()) {
                case DELETE -> writer.keyword("DELETE");
                case UPDATE -> {
                    writer.keyword("UPDATE SET");
                    for (int i = 0; i < clause.columns().size(); i++) {
                        if (i > 0) {
                            writer.sep(",");
                        }
                        clause.columns().get(i).unparse(writer, 0, 0);
                        writer.keyword("=");
                        clause.values().get(i).unparse(writer, 0, 0);
                    }
                }
                case INSERT -> {
                    writer.keyword("INSERT");
                    if (!clause.columns().isEmpty()) {
                        clause.columns().unparse(writer, 0, 0);
                    }
                    writer.keyword("VALUES");
                    SqlWriter.Frame frame = writer.startList("(", ")");
                    for (SqlNode value : clause.values()) {
                        writer.sep(",");
                        value.unparse(writer, 0, 0);
                    }
                    writer.endList(frame);
                }
            }
        }
    }
}
