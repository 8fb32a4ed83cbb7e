package io.ontul.engine.query;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestQueryParallelism
{
    private static final long MB = 1 << 20;

    @Test
    void smallLimitsRunOnFewerWorkers()
    {
        assertThat(QueryContext.parallelismWithin(4 * MB, 32)).isEqualTo(2);
        assertThat(QueryContext.parallelismWithin(5 * MB, 32)).isEqualTo(2);
        assertThat(QueryContext.parallelismWithin(64 * MB, 32)).isEqualTo(32);
        assertThat(QueryContext.parallelismWithin(1L << 31, 32)).isEqualTo(32);
    }

    @Test
    void alwaysAtLeastOneWorkerAndNeverMoreThanAskedFor()
    {
        assertThat(QueryContext.parallelismWithin(1, 8)).isEqualTo(1);
        assertThat(QueryContext.parallelismWithin(MB, 8)).isEqualTo(1);
        assertThat(QueryContext.parallelismWithin(Long.MAX_VALUE, 2)).isEqualTo(2);
        assertThat(QueryContext.parallelismWithin(Long.MAX_VALUE, 1)).isEqualTo(1);
    }
}
