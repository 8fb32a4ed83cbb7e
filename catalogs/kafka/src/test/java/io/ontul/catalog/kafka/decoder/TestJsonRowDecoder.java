package io.ontul.catalog.kafka.decoder;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TimeZone;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.kafka.encoder.JsonRowEncoder;

class TestJsonRowDecoder
{
    private static final List<Field> COLUMNS = List.of(
            column("flag", ArrowType.Bool.INSTANCE),
            column("tiny", new ArrowType.Int(8, true)),
            column("small", new ArrowType.Int(16, true)),
            column("id", new ArrowType.Int(32, true)),
            column("big", new ArrowType.Int(64, true)),
            column("ratio", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
            column("amount", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            column("price", new ArrowType.Decimal(10, 2, 128)),
            column("name", ArrowType.Utf8.INSTANCE),
            column("day", new ArrowType.Date(DateUnit.DAY)),
            column("at", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
            column("event_time", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
            column("precise_time", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)));

    private BufferAllocator allocator;

    @BeforeEach
    void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown()
    {
        allocator.close();
    }

    @Test
    void decodesEveryType()
    {
        List<Object> row = decodeOne("""
                {"flag": true, "tiny": -8, "small": 300, "id": 7, "big": 9007199254740993, "ratio": 0.5, "amount": 12.25,
                 "price": 19.999, "name": "Zoë ☃ 😀", "day": "2026-01-02", "at": "10:15:30.250",
                 "event_time": "2026-01-01T00:00:05.123", "precise_time": "2026-01-01 00:00:05.123456"}
                """);
        assertThat(row).containsExactly(true, (byte) -8, (short) 300, 7, 9007199254740993L, 0.5f, 12.25, new BigDecimal("20.00"), "Zoë ☃ 😀",
                LocalDate.of(2026, 1, 2), LocalTime.of(10, 15, 30, 250_000_000),
                LocalDateTime.of(2026, 1, 1, 0, 0, 5, 123_000_000), LocalDateTime.of(2026, 1, 1, 0, 0, 5, 123_456_000));
    }

    @Test
    void missingAndNullFieldsAreNullAndUnknownFieldsIgnored()
    {
        List<Object> row = decodeOne("{\"id\": 1, \"name\": null, \"extra\": {\"deep\": [1, 2, {\"x\": null}]}, \"more\": [1]}");
        assertThat(row.get(3)).isEqualTo(1);
        assertThat(row.stream().filter(value -> value != null)).hasSize(1);
    }

    @Test
    void matchesFieldNamesExactlyThenWithoutCase()
    {
        List<Field> columns = List.of(column("eventid", new ArrowType.Int(64, true)), column("Amount", new ArrowType.Int(64, true)), column("amount", new ArrowType.Int(64, true)));
        assertThat(decode(columns, "{\"EventId\": 5, \"amount\": 2, \"Amount\": 1}")).containsExactly(5L, 1L, 2L);
    }

    @Test
    void timestampsNeverDependOnTheJvmZone()
    {
        TimeZone original = TimeZone.getDefault();
        try {
            for (String zone : List.of("UTC", "America/Los_Angeles", "Asia/Kathmandu")) {
                TimeZone.setDefault(TimeZone.getTimeZone(zone));
                List<Field> columns = List.of(column("t", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)));
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(columns), allocator);
                try (root) {
                    root.allocateNew();
                    new JsonRowDecoder(columns, Optional.empty()).decode(null, "{\"t\": \"2026-01-01T00:00:05.123\"}".getBytes(UTF_8), root.getFieldVectors().toArray(new FieldVector[0]), 0);
                    assertThat(((TimeStampMilliVector) root.getVector(0)).get(0)).isEqualTo(1767225605123L);
                }
                catch (MalformedRecordException e) {
                    throw new AssertionError(e);
                }
            }
        }
        finally {
            TimeZone.setDefault(original);
        }
    }

    @Test
    void readsTimestampsInEveryDocumentedForm()
    {
        LocalDateTime expected = LocalDateTime.of(2026, 1, 1, 0, 0, 5, 123_000_000);
        for (String value : List.of("\"2026-01-01T00:00:05.123\"", "\"2026-01-01 00:00:05.123\"", "\"2026-01-01T00:00:05.123999\"", "\"2026-01-01T00:00:05.123999999\"",
                "1767225605123", "\"1767225605123\"", "\"2026-01-01T00:00:05.123Z\"", "\"2026-01-01T02:00:05.123+02:00\"")) {
            assertThat(decode(List.of(column("t", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null))), "{\"t\": " + value + "}"))
                    .as(value)
                    .containsExactly(expected);
        }
        assertThat(decode(List.of(column("t", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null))), "{\"t\": \"2026-01-01T00:00\"}"))
                .containsExactly(LocalDateTime.of(2026, 1, 1, 0, 0));
        assertThat(decode(List.of(column("t", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null))), "{\"t\": \"1969-12-31T23:59:59.999\"}"))
                .containsExactly(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000));
    }

    @Test
    void convertsLenientlyWhereTheIntentIsClear()
    {
        List<Field> columns = List.of(column("n", new ArrowType.Int(64, true)), column("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                column("s", ArrowType.Utf8.INSTANCE), column("b", ArrowType.Bool.INSTANCE), column("j", ArrowType.Utf8.INSTANCE));
        assertThat(decode(columns, "{\"n\": \"42\", \"d\": \"1.5\", \"s\": 12.50, \"b\": \"TRUE\", \"j\": {\"a\": [1, \"x\"]}}"))
                .containsExactly(42L, 1.5, "12.50", true, "{\"a\":[1,\"x\"]}");
        assertThat(decode(columns, "{\"n\": 5.0}").get(0)).isEqualTo(5L);
    }

    @Test
    void rejectsMalformedRecordsWithAReason()
    {
        assertMalformed("[1, 2]", "the value is not a JSON object");
        assertMalformed("\"text\"", "the value is not a JSON object");
        assertMalformed("{\"id\": 1", "invalid JSON");
        assertMalformed("not json", "invalid JSON");
        assertMalformed("{\"id\": 1} trailing", "invalid JSON");
        assertMalformed("{\"id\": \"seven\"}", "column 'id' (INTEGER) cannot hold 'seven'");
        assertMalformed("{\"tiny\": 300}", "column 'tiny' (TINYINT) cannot hold 300: out of range");
        assertMalformed("{\"big\": 123456789012345678901234567890}", "column 'big' (BIGINT) cannot hold 123456789012345678901234567890: out of range");
        assertMalformed("{\"id\": 1.5}", "column 'id' (INTEGER) cannot hold 1.5");
        assertMalformed("{\"price\": 123456789.5}", "column 'price' (DECIMAL(10,2)) cannot hold 123456789.5: out of range");
        assertMalformed("{\"event_time\": \"yesterday\"}", "column 'event_time' (TIMESTAMP(3)) cannot hold 'yesterday'");
        assertMalformed("{\"event_time\": \"2026-02-30T00:00:00\"}", "column 'event_time' (TIMESTAMP(3)) cannot hold '2026-02-30T00:00:00'");
        assertMalformed("{\"event_time\": true}", "column 'event_time' (TIMESTAMP(3)) cannot hold true");
        assertMalformed("{\"flag\": 1}", "column 'flag' (BOOLEAN) cannot hold 1");
        assertMalformed("{\"amount\": [1]}", "column 'amount' (DOUBLE) cannot hold a JSON array");
        assertMalformed("{\"day\": \"2026-13-01\"}", "column 'day' (DATE) cannot hold '2026-13-01'");
        assertThatThrownBy(() -> new JsonRowDecoder(COLUMNS, Optional.empty()).decode(null, null, new FieldVector[COLUMNS.size()], 0))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessage("the record has no value (a tombstone)");
    }

    @Test
    void notNullColumnsNeedAValue()
    {
        List<Field> columns = List.of(new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null));
        assertThatThrownBy(() -> new JsonRowDecoder(columns, Optional.empty()).decode(null, "{}".getBytes(UTF_8), new FieldVector[1], 0))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessage("NOT NULL column 'id' has no value");
    }

    @Test
    void keyColumnHoldsTheRecordKey()
            throws MalformedRecordException
    {
        List<Field> columns = List.of(column("user_id", ArrowType.Utf8.INSTANCE), column("n", new ArrowType.Int(64, true)));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(columns), allocator)) {
            root.allocateNew();
            FieldVector[] vectors = root.getFieldVectors().toArray(new FieldVector[0]);
            JsonRowDecoder decoder = new JsonRowDecoder(columns, Optional.of("user_id"));
            decoder.decode("alice".getBytes(UTF_8), "{\"user_id\": \"ignored\", \"n\": 1}".getBytes(UTF_8), vectors, 0);
            decoder.decode(null, "{\"n\": 2}".getBytes(UTF_8), vectors, 1);
            root.setRowCount(2);
            assertThat(root.getVector(0).getObject(0).toString()).isEqualTo("alice");
            assertThat(root.getVector(0).isNull(1)).isTrue();
        }
    }

    @Test
    void aMalformedRecordLeavesNoTraceInTheBatch()
            throws MalformedRecordException
    {
        List<Field> columns = List.of(column("name", ArrowType.Utf8.INSTANCE), column("n", new ArrowType.Int(64, true)));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(columns), allocator)) {
            root.allocateNew();
            FieldVector[] vectors = root.getFieldVectors().toArray(new FieldVector[0]);
            JsonRowDecoder decoder = new JsonRowDecoder(columns, Optional.empty());
            decoder.decode(null, "{\"name\": \"first\", \"n\": 1}".getBytes(UTF_8), vectors, 0);
            assertThatThrownBy(() -> decoder.decode(null, "{\"name\": \"a long name that gets written\", \"n\": \"x\"}".getBytes(UTF_8), vectors, 1))
                    .isInstanceOf(MalformedRecordException.class);
            decoder.decode(null, "{\"n\": 3}".getBytes(UTF_8), vectors, 1);
            decoder.decode(null, "{\"name\": \"third\", \"n\": 4}".getBytes(UTF_8), vectors, 2);
            for (FieldVector vector : vectors) {
                vector.setValueCount(3);
            }
            root.setRowCount(3);
            assertThat(rows(root)).containsExactly(Arrays.asList("first", 1L), Arrays.asList(null, 3L), Arrays.asList("third", 4L));
        }
    }

    @Test
    void checksColumnsItDoesNotWrite()
    {
        List<Field> columns = List.of(column("a", new ArrowType.Int(64, true)), column("b", new ArrowType.Int(64, true)));
        assertThatThrownBy(() -> new JsonRowDecoder(columns, Optional.empty()).decode(null, "{\"a\": 1, \"b\": \"x\"}".getBytes(UTF_8), new FieldVector[2], 0))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessage("column 'b' (BIGINT) cannot hold 'x'");
    }

    @Test
    void encoderOutputDecodesToTheSameValues()
    {
        String json = """
                {"flag": false, "tiny": 1, "small": -2, "id": 3, "big": -4, "ratio": 1.25, "amount": -0.125, "price": -7.5, "name": "a \\"quoted\\" Zoë",
                 "day": "1969-07-20", "at": "23:59:59.999", "event_time": "1970-01-01T00:00:00.001", "precise_time": "2262-04-11T23:47:16.854775"}
                """;
        List<Object> expected = decodeOne(json);
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(COLUMNS), allocator)) {
            root.allocateNew();
            new JsonRowDecoder(COLUMNS, Optional.empty()).decode(null, json.getBytes(UTF_8), root.getFieldVectors().toArray(new FieldVector[0]), 0);
            root.setRowCount(1);
            JsonRowEncoder encoder = new JsonRowEncoder(COLUMNS);
            encoder.bind(root);
            byte[] encoded = encoder.encode(0);
            assertThat(decodeOne(new String(encoded, UTF_8))).isEqualTo(expected);
        }
        catch (MalformedRecordException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void rawDecoderReplacesMalformedUtf8()
    {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(RawRowDecoder.COLUMNS), allocator)) {
            root.allocateNew();
            FieldVector[] vectors = root.getFieldVectors().toArray(new FieldVector[0]);
            new RawRowDecoder().decode(null, new byte[] {'o', 'k', (byte) 0xC3, (byte) 0x28, '!'}, vectors, 0);
            new RawRowDecoder().decode("k".getBytes(UTF_8), "Zoë".getBytes(UTF_8), vectors, 1);
            root.setRowCount(2);
            assertThat(rows(root)).containsExactly(Arrays.asList(null, "ok\uFFFD(!"), Arrays.asList("k", "Zoë"));
        }
    }

    private void assertMalformed(String json, String reason)
    {
        assertThatThrownBy(() -> new JsonRowDecoder(COLUMNS, Optional.empty()).decode(null, json.getBytes(UTF_8), new FieldVector[COLUMNS.size()], 0))
                .as(json)
                .isInstanceOf(MalformedRecordException.class)
                .hasMessageStartingWith(reason);
    }

    private List<Object> decodeOne(String json)
    {
        return decode(COLUMNS, json);
    }

    private List<Object> decode(List<Field> columns, String json)
    {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(columns), allocator)) {
            root.allocateNew();
            new JsonRowDecoder(columns, Optional.empty()).decode(null, json.getBytes(UTF_8), root.getFieldVectors().toArray(new FieldVector[0]), 0);
            root.setRowCount(1);
            return rows(root).get(0);
        }
        catch (MalformedRecordException e) {
            throw new AssertionError(json + ": " + e.getMessage(), e);
        }
    }

    private static List<List<Object>> rows(VectorSchemaRoot root)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (int row = 0; row < root.getRowCount(); row++) {
            List<Object> values = new ArrayList<>();
            for (FieldVector vector : root.getFieldVectors()) {
                values.add(value(vector, row));
            }
            rows.add(values);
        }
        return rows;
    }

    private static Object value(FieldVector vector, int row)
    {
        if (vector.isNull(row)) {
            return null;
        }
        if (vector instanceof DateDayVector dates) {
            return LocalDate.ofEpochDay(dates.get(row));
        }
        if (vector instanceof TimeMilliVector times) {
            return LocalTime.ofNanoOfDay(times.get(row) * 1_000_000L);
        }
        Object value = vector.getObject(row);
        return value instanceof Text text ? text.toString() : value;
    }

    private static Field column(String name, ArrowType type)
    {
        return new Field(name, FieldType.nullable(type), null);
    }
}
