package io.ontul.catalog.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

class TestTpchColumnDefinition
{
    @Test
    void testVarcharBeyondAscii()
    {
        // generated text is ASCII; anything else must still come out as UTF-8
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            values.add(i % 3 == 0 ? "Zürich " + i : i % 3 == 1 ? "" : "東京-" + "x".repeat(i % 50));
        }
        values.add("a");
        values.addAll(Collections.nCopies(10, "ünïcödé ünïcödé ünïcödé"));
        TpchColumnDefinition<String> column = TpchColumnDefinition.varchar("text", 100, Function.identity());
        try (RootAllocator allocator = new RootAllocator();
                VarCharVector vector = (VarCharVector) column.field().createVector(allocator)) {
            column.write(values, vector);
            assertThat(vector.getValueCount()).isEqualTo(values.size());
            assertThat(vector.getNullCount()).isZero();
            for (int i = 0; i < values.size(); i++) {
                assertThat(vector.getObject(i)).hasToString(values.get(i));
            }
        }
    }

    @Test
    void testAsciiBatchOfOddSize()
    {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 8195; i++) {
            values.add("row " + i);
        }
        TpchColumnDefinition<String> column = TpchColumnDefinition.varchar("text", 10, Function.identity());
        try (RootAllocator allocator = new RootAllocator();
                VarCharVector vector = (VarCharVector) column.field().createVector(allocator)) {
            column.write(values, vector);
            assertThat(vector.getNullCount()).isZero();
            assertThat(vector.getObject(8194)).hasToString("row 8194");
            assertThat(vector.getObject(0)).hasToString("row 0");
        }
    }
}
