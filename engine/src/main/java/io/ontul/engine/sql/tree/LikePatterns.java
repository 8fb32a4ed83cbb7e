package io.ontul.engine.sql.tree;

import java.util.Optional;

import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlWriter;

/** The optional {@code LIKE 'pattern'} clause shared by the SHOW statements. */
final class LikePatterns
{
    private LikePatterns() {}

    static Optional<String> value(SqlCharStringLiteral pattern)
    {
        return Optional.ofNullable(pattern).map(literal -> literal.getValueAs(String.class));
    }

    static void unparse(SqlWriter writer, SqlCharStringLiteral pattern)
    {
        if (pattern != null) {
            writer.keyword("LIKE");
            pattern.unparse(writer, 0, 0);
        }
    }
}
