package io.ontul.engine.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

import io.ontul.engine.sql.parser.impl.OntulSqlParserImpl;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Parses Ontul's SQL: Calcite's grammar plus the statements in {@code src/main/codegen}. Unquoted
 * identifiers are lower-cased, quoted ones kept as written. Thread-safe: each call makes its own
 * parser.
 */
public final class OntulParser
{
    /**
     * LENIENT rather than BABEL: it accepts LIMIT/OFFSET, {@code !=}, {@code %}, GROUP BY alias
     * and ordinal, but keeps strict GROUP BY and no implicit string-number coercion.
     */
    private static final SqlParser.Config CONFIG = SqlParser.config()
            .withParserFactory(OntulSqlParserImpl.FACTORY)
            .withUnquotedCasing(Casing.TO_LOWER)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false)
            .withConformance(SqlConformanceEnum.LENIENT)
            .withIdentifierMaxLength(1024);

    private OntulParser() {}

    /** The parser configuration; the validator and planner use the same casing and conformance. */
    public static SqlParser.Config parserConfig()
    {
        return CONFIG;
    }

    /**
     * Parses one statement, which may end with a semicolon.
     *
     * @throws OntulException with {@link ErrorCode#SYNTAX_ERROR} and a message starting with
     *         {@code line L:C: }
     */
    public static SqlNode parse(String sql)
    {
        return parse(sql, StatementLimits.DEFAULT);
    }

    /**
     * Parses one statement within {@code limits}: a statement that is too long or nests too deeply
     * fails with {@link ErrorCode#INVALID_ARGUMENT} before (or instead of) exhausting the stack.
     */
    public static SqlNode parse(String sql, StatementLimits limits)
    {
        requireNonNull(sql, "sql is null");
        requireNonNull(limits, "limits is null");
        limits.checkText(sql);
        SqlNodeList statements;
        try {
            statements = SqlParser.create(sql, CONFIG).parseStmtList();
        }
        catch (SqlParseException e) {
            if (e.getCause() instanceof StackOverflowError) {
                // the parser recurses once per operator of a chain; its stack ran out before the statement's end
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, ("Statement is too complex to parse: its %,d characters nest or chain operators beyond what the "
                        + "parser can follow; write long lists of alternatives as IN (...), or split the statement").formatted(sql.length()));
            }
            // Calcite's own message quotes the statement's tokens: keep it out where they may be passwords
            throw new OntulException(ErrorCode.SYNTAX_ERROR, SyntaxErrorMessage.of(e, sql), SqlRedaction.mayHoldPasswords(sql) ? null : e);
        }
        if (statements.isEmpty()) {
            throw new OntulException(ErrorCode.SYNTAX_ERROR, "line 1:1: Empty statement");
        }
        if (statements.size() > 1) {
            SqlNode second = statements.get(1);
            throw new OntulException(ErrorCode.SYNTAX_ERROR, "line %d:%d: Expected one statement, found %d".formatted(
                    second.getParserPosition().getLineNum(),
                    second.getParserPosition().getColumnNum(),
                    statements.size()));
        }
        return limits.check(statements.get(0));
    }

    /**
     * Splits a script (the CLI's standard input, say) into statements on the semicolons outside
     * quotes and comments. The statements keep their comments and lose surrounding whitespace.
     */
    public static List<String> splitStatements(String script)
    {
        return StatementSplitter.split(requireNonNull(script, "script is null"));
    }
}
