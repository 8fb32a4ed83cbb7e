package io.ontul.server.cli;

import static io.ontul.server.cli.Batches.batch;
import static io.ontul.server.cli.Batches.bigints;
import static io.ontul.server.cli.Batches.booleans;
import static io.ontul.server.cli.Batches.dates;
import static io.ontul.server.cli.Batches.decimals;
import static io.ontul.server.cli.Batches.doubles;
import static io.ontul.server.cli.Batches.integers;
import static io.ontul.server.cli.Batches.strings;
import static io.ontul.server.cli.Batches.timestamps;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestJsonLinesFormatter
{
    private final BufferAllocator allocator = new RootAllocator();
    private final StringWriter output = new StringWriter();

    @AfterEach
    void closeAllocator()
    {
        allocator.close();
    }

    @Test
    void writesOneObjectPerRowWithTypedValues()
            throws IOException
    {
        int leapDay = (int) LocalDate.of(2024, 2, 29).toEpochDay();
        long afternoon = LocalDateTime.of(2024, 2, 29, 13, 45, 1, 250_000_000).toInstant(ZoneOffset.UTC).toEpochMilli();
        try (FakeQueryResult result = FakeQueryResult.of(batch(
                integers(allocator, "id", 1, null),
                strings(allocator, "name", "a\"b\\c\n\u0001é", null),
                decimals(allocator, "price", 10, 2, "1.50", null),
                dates(allocator, "day", leapDay, null),
                timestamps(allocator, "at", afternoon, null),
                booleans(allocator, "flag", true, null),
                doubles(allocator, "x", 1.5, Double.NaN)))) {
            new JsonLinesFormatter(output).format(result);
        }

        assertThat(output.toString()).isEqualTo("""
                {"id":1,"name":"a\\"b\\\\c\\n\\u0001é","price":1.50,"day":"2024-02-29","at":"2024-02-29 13:45:01.250","flag":true,"x":1.5}
                {"id":null,"name":null,"price":null,"day":null,"at":null,"flag":null,"x":"NaN"}
                """);
    }

    @Test
    void writesUpdateCountAsRow()
            throws IOException
    {
        try (FakeQueryResult result = FakeQueryResult.update(batch(bigints(allocator, "rows", 42L)))) {
            new JsonLinesFormatter(output).format(result);
        }

        assertThat(output.toString()).isEqualTo("{\"rows\":42}\n");
    }
}
