package io.ontul.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestValueRenderer
{
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator()
    {
        allocator.close();
    }

    @Test
    void writesDoublesWithoutExponentForUsualMagnitudes()
    {
        assertThat(ValueRenderer.formatDouble(1.5)).isEqualTo("1.5");
        assertThat(ValueRenderer.formatDouble(-0.25)).isEqualTo("-0.25");
        assertThat(ValueRenderer.formatDouble(3.0)).isEqualTo("3.0");
        assertThat(ValueRenderer.formatDouble(1.0e7)).isEqualTo("10000000.0");
        assertThat(ValueRenderer.formatDouble(-1.2345678e7)).isEqualTo("-12345678.0");
        assertThat(ValueRenderer.formatDouble(1234567890.125)).isEqualTo("1234567890.125");
        assertThat(ValueRenderer.formatDouble(1.0e20)).isEqualTo("1.0E20");
        assertThat(ValueRenderer.formatDouble(1.0e-5)).isEqualTo("1.0E-5");
        assertThat(ValueRenderer.formatDouble(Double.NaN)).isEqualTo("NaN");
        assertThat(ValueRenderer.formatDouble(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
        assertThat(ValueRenderer.formatReal(2.5e7f)).isEqualTo("25000000.0");
    }

    @Test
    void rendersDatesAndTimesWithoutZoneShift()
    {
        long millis = LocalDateTime.of(1969, 12, 31, 23, 59, 58, 7_000_000).toInstant(ZoneOffset.UTC).toEpochMilli();
        long micros = LocalDateTime.of(2024, 5, 1, 8, 0, 0, 123_456_000).toInstant(ZoneOffset.UTC).toEpochMilli() * 1000 + 456;
        try (DateDayVector dates = new DateDayVector("d", allocator);
                TimeMilliVector times = new TimeMilliVector("t", allocator);
                TimeStampMilliVector timestamps = new TimeStampMilliVector("ts", allocator);
                TimeStampMicroVector microTimestamps = new TimeStampMicroVector("ts6", allocator);
                TimeStampMicroTZVector zonedTimestamps = new TimeStampMicroTZVector("tsz", allocator, "Asia/Seoul")) {
            dates.setSafe(0, (int) LocalDate.of(1995, 3, 15).toEpochDay());
            dates.setNull(1);
            times.setSafe(0, (13 * 3600 + 5 * 60 + 9) * 1000 + 42);
            timestamps.setSafe(0, millis);
            microTimestamps.setSafe(0, micros);
            zonedTimestamps.setSafe(0, 0);

            assertThat(ValueRenderer.render(dates, 0)).isEqualTo("1995-03-15");
            assertThat(ValueRenderer.render(dates, 1)).isNull();
            assertThat(ValueRenderer.render(times, 0)).isEqualTo("13:05:09.042");
            assertThat(ValueRenderer.render(timestamps, 0)).isEqualTo("1969-12-31 23:59:58.007");
            assertThat(ValueRenderer.render(microTimestamps, 0)).isEqualTo("2024-05-01 08:00:00.123456");
            assertThat(ValueRenderer.render(zonedTimestamps, 0)).isEqualTo("1970-01-01 09:00:00.000000 Asia/Seoul");
        }
    }

    @Test
    void rendersDecimalsWithTheirScale()
    {
        try (Decimal256Vector decimals = new Decimal256Vector("d", allocator, 40, 3)) {
            decimals.setSafe(0, new java.math.BigDecimal("12345678901234567890123.400"));
            decimals.setSafe(1, new java.math.BigDecimal("-0.001"));
            assertThat(ValueRenderer.render(decimals, 0)).isEqualTo("12345678901234567890123.400");
            assertThat(ValueRenderer.render(decimals, 1)).isEqualTo("-0.001");
        }
    }

    @Test
    void rendersTextBinaryAndNestedValues()
    {
        try (VarCharVector text = new VarCharVector("s", allocator);
                VarBinaryVector binary = new VarBinaryVector("b", allocator);
                ListVector list = ListVector.empty("l", allocator);
                StructVector struct = StructVector.empty("r", allocator)) {
            text.setSafe(0, "한국어 ok".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            binary.setSafe(0, new byte[] {(byte) 0xca, (byte) 0xfe, 0x01});

            UnionListWriter writer = list.getWriter();
            writer.setPosition(0);
            writer.startList();
            writer.integer().writeInt(1);
            writer.writeNull();
            writer.integer().writeInt(3);
            writer.endList();
            list.setValueCount(1);

            IntVector x = struct.addOrGet("x", FieldType.nullable(new ArrowType.Int(32, true)), IntVector.class);
            VarCharVector y = struct.addOrGet("y", FieldType.nullable(ArrowType.Utf8.INSTANCE), VarCharVector.class);
            x.setSafe(0, 7);
            y.setNull(0);
            struct.setIndexDefined(0);
            struct.setValueCount(1);

            assertThat(ValueRenderer.render(text, 0)).isEqualTo("한국어 ok");
            assertThat(ValueRenderer.render(binary, 0)).isEqualTo("cafe01");
            assertThat(ValueRenderer.render(list, 0)).isEqualTo("[1, NULL, 3]");
            assertThat(ValueRenderer.render(struct, 0)).isEqualTo("{x=7, y=NULL}");
        }
    }

    @Test
    void classifiesNumbers()
    {
        assertThat(List.of(new ArrowType.Int(64, true), new ArrowType.Decimal(10, 2, 128), new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)))
                .allMatch(ValueRenderer::isNumber);
        assertThat(List.of(ArrowType.Utf8.INSTANCE, ArrowType.Bool.INSTANCE, new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY)))
                .noneMatch(ValueRenderer::isNumber);
    }
}
