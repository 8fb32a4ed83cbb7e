package io.ontul.engine.statement;

import java.util.List;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.sql.tree.SqlResetSession;
import io.ontul.engine.sql.tree.SqlSetSession;
import io.ontul.engine.sql.tree.SqlUse;

/** The session's own state: SET SESSION, RESET SESSION, USE catalog.schema. */
final class SessionStatements
{
    QueryResult set(SqlSetSession set, StatementContext context)
    {
        context.session().setProperty(String.join(".", set.name().names), set.valueText());
        return context.updateCount(0);
    }

    QueryResult reset(SqlResetSession reset, StatementContext context)
    {
        context.session().resetProperty(String.join(".", reset.name().names));
        return context.updateCount(0);
    }

    QueryResult use(SqlUse use, StatementContext context)
    {
        List<String> names = use.name().names;
        if (names.size() == 2) {
            context.connector(names.get(0), use.getParserPosition());
            context.session().setCatalog(names.get(0));
            context.session().setSchema(names.get(1));
        }
        else {
            context.session().setSchema(names.get(0));
        }
        return context.updateCount(0);
    }
}
