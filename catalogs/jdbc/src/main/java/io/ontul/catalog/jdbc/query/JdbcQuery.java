package io.ontul.catalog.jdbc.query;

import static java.util.Objects.requireNonNull;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * A generated statement: SQL text with {@code ?} placeholders and the values to bind. Values are
 * never written into the text.
 */
public record JdbcQuery(String sql, List<QueryParameter> parameters)
{
    public JdbcQuery
    {
        requireNonNull(sql, "sql is null");
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
    }

    public void bind(PreparedStatement statement)
            throws SQLException
    {
        for (int i = 0; i < parameters.size(); i++) {
            parameters.get(i).binder().bind(statement, i + 1, parameters.get(i).value());
        }
    }

    /** The values, for tests and messages. */
    public List<Object> values()
    {
        return parameters.stream().map(QueryParameter::value).toList();
    }

    @Override
    public String toString()
    {
        return sql;
    }
}
