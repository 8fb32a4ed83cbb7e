package io.ontul.server.cli;

import static io.ontul.server.cli.Batches.batch;
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

class TestCsvFormatter
{
    private final BufferAllocator allocator = new RootAllocator();
    private final StringWriter output = new StringWriter();

    @AfterEach
    void closeAllocator()
    {
        allocator.close();
    }

    @Test
    void quotesOnlyWhereNeededAndKeepsNullApartFromEmpty()
            throws IOException
    {
        try (FakeQueryResult result = FakeQueryResult.of(
                batch(
                        integers(allocator, "id", 1, 2, 3),
                        strings(allocator, "text", "plain", "a,b", "say \"hi\""),
                        decimals(allocator, "amount, EUR", 5, 2, "-3.25", "0.10", "1.00")),
                batch(
                        integers(allocator, "id", 4, null, 6),
                        strings(allocator, "text", "", null, "line1\nline2"),
                        decimals(allocator, "amount, EUR", 5, 2, null, null, "7.00")))) {
            new CsvFormatter(output).format(result);
        }

        assertThat(output.toString()).isEqualTo(
                "id,text,\"amount, EUR\"\r\n" +
                        "1,plain,-3.25\r\n" +
                        "2,\"a,b\",0.10\r\n" +
                        "3,\"say \"\"hi\"\"\",1.00\r\n" +
                        "4,\"\",\r\n" +
                        ",,\r\n" +
                        "6,\"line1\nline2\",7.00\r\n");
    }
}
