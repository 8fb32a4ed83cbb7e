package io.ontul.server.cli;

import static io.ontul.server.cli.Batches.batch;
import static io.ontul.server.cli.Batches.bigints;
import static io.ontul.server.cli.Batches.decimals;
import static io.ontul.server.cli.Batches.integers;
import static io.ontul.server.cli.Batches.strings;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestTableFormatter
{
    private final BufferAllocator allocator = new RootAllocator();
    private final StringWriter output = new StringWriter();

    @AfterEach
    void closeAllocator()
    {
        allocator.close();
    }

    @Test
    void alignsNumbersRightAndTextLeft()
            throws IOException
    {
        format(new TableFormatter(output), FakeQueryResult.of(batch(
                integers(allocator, "id", 1, 22, null),
                strings(allocator, "name", "apple", null, "kiwi"),
                decimals(allocator, "price", 10, 2, "1.50", null, "100.00"))));

        assertThat(output.toString()).isEqualTo("""
                  id  | name  | price
                ------+-------+--------
                    1 | apple |   1.50
                   22 | NULL  |   NULL
                 NULL | kiwi  | 100.00
                (3 rows)
                """);
    }

    @Test
    void printsHeaderForEmptyResult()
            throws IOException
    {
        format(new TableFormatter(output), FakeQueryResult.of(batch(integers(allocator, "count"))));

        assertThat(output.toString()).isEqualTo("""
                 count
                -------
                (0 rows)
                """);
    }

    @Test
    void widthsComeFromTheFirstRowsOnly()
            throws IOException
    {
        format(new TableFormatter(output, 2), FakeQueryResult.of(
                batch(strings(allocator, "x", "a", "bb")),
                batch(strings(allocator, "x", "cccc"))));

        assertThat(output.toString()).isEqualTo("""
                 x
                ----
                 a
                 bb
                 cccc
                (3 rows)
                """);
    }

    @Test
    void printsUpdateCountAndSeparatesResults()
            throws IOException
    {
        TableFormatter formatter = new TableFormatter(output);
        format(formatter, FakeQueryResult.update(batch(bigints(allocator, "rows", 5L))));
        format(formatter, FakeQueryResult.update(batch(bigints(allocator, "rows", 1L))));
        format(formatter, FakeQueryResult.of(batch(integers(allocator, "a", 1))));

        assertThat(output.toString()).isEqualTo("""
                OK, 5 rows

                OK, 1 row

                 a
                ---
                 1
                (1 row)
                """);
    }

    private static void format(ResultFormatter formatter, FakeQueryResult result)
            throws IOException
    {
        try (result) {
            formatter.format(result);
        }
    }
}
