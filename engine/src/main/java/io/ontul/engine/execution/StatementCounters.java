package io.ontul.engine.execution;

import java.util.concurrent.atomic.LongAdder;

import io.ontul.engine.api.StatementStatistics;

/** The engine's {@link StatementStatistics}, counted where statements are parsed and planned. */
public final class StatementCounters
        implements StatementStatistics
{
    private final LongAdder parsed = new LongAdder();
    private final LongAdder planned = new LongAdder();

    void parsed()
    {
        parsed.increment();
    }

    void planned()
    {
        planned.increment();
    }

    @Override
    public long statementsParsed()
    {
        return parsed.sum();
    }

    @Override
    public long queriesPlanned()
    {
        return planned.sum();
    }
}
