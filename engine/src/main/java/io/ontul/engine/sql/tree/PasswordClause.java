package io.ontul.engine.sql.tree;

import org.apache.calcite.sql.SqlWriter;

/**
 * The {@code PASSWORD 'secret'} clause of the user statements. The password is kept out of the
 * operand list and every rendering of the node: {@code toString()} and {@code unparse} write
 * {@code PASSWORD '***'}, so a node that reaches a log, an error or EXPLAIN shows no secret.
 */
final class PasswordClause
{
    static final String MASK = "'***'";

    private PasswordClause() {}

    static void unparse(SqlWriter writer)
    {
        writer.keyword("PASSWORD");
        writer.literal(MASK);
    }
}
