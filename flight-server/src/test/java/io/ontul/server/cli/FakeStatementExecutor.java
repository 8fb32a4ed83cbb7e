package io.ontul.server.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.ontul.engine.api.QueryResult;

/** Answers each known statement from a prepared supplier; records what ran. */
final class FakeStatementExecutor
        implements StatementExecutor
{
    private final Map<String, Supplier<QueryResult>> answers = new LinkedHashMap<>();
    private final List<String> executed = new ArrayList<>();
    private final List<QueryResult> results = new ArrayList<>();
    private boolean closed;

    FakeStatementExecutor answer(String sql, Supplier<QueryResult> result)
    {
        answers.put(sql, result);
        return this;
    }

    FakeStatementExecutor fail(String sql, RuntimeException failure)
    {
        answers.put(sql, () -> {
            throw failure;
        });
        return this;
    }

    @Override
    public QueryResult execute(String sql)
    {
        executed.add(sql);
        Supplier<QueryResult> answer = answers.get(sql);
        if (answer == null) {
            throw new AssertionError("unexpected statement: " + sql);
        }
        QueryResult result = answer.get();
        results.add(result);
        return result;
    }

    List<String> executed()
    {
        return executed;
    }

    List<QueryResult> results()
    {
        return results;
    }

    boolean isClosed()
    {
        return closed;
    }

    @Override
    public void close()
    {
        closed = true;
    }
}
