package io.ontul.exchange.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.LongUnaryOperator;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.crypto.ChunkedInputStream;
import io.ontul.exchange.crypto.ChunkedOutputStream;
import io.ontul.exchange.kms.KeyManagementService;
import io.ontul.exchange.kms.LocalKeyManagementService;

class TestPackedBatchFormat
{
    private static final int ROWS = 3_000;

    @TempDir
    Path temporary;
    private BufferAllocator allocator;

    @BeforeEach
    void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown()
    {
        // every buffer read back was closed: nothing leaks
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    /** Values spanning 0, 1, 2, 4 and 8 bytes, from every packed type, with no, some and only NULLs. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 4, 8})
    void roundTripsEveryPackedTypeAtEveryWidth(int spanBytes)
            throws IOException
    {
        Random random = new Random(spanBytes);
        LongUnaryOperator value = row -> spanBytes == 0 ? -77 : spanBytes == 8 ? random.nextLong() : -1000 + (random.nextLong() >>> (64 - 8 * spanBytes));
        List<VectorSchemaRoot> batches = new ArrayList<>();
        try {
            for (double nulls : new double[] {0, 0.3, 1}) {
                batches.add(everyType(ROWS, value, nulls, random));
            }
            for (boolean throughExchangeStream : new boolean[] {true, false}) {
                assertReadBack(batches, write(batches, throughExchangeStream), throughExchangeStream);
            }
        }
        finally {
            batches.forEach(VectorSchemaRoot::close);
        }
    }

    @Test
    void extremesOfEachWidthRoundTrip()
            throws IOException
    {
        long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, Short.MIN_VALUE, Short.MAX_VALUE, Byte.MIN_VALUE, Byte.MAX_VALUE};
        Random random = new Random(1);
        List<VectorSchemaRoot> batches = new ArrayList<>();
        try {
            batches.add(everyType(extremes.length, row -> extremes[(int) row], 0, random));
            // a batch spanning exactly 255, 65535 and 2^32 - 1: the widest offsets of 1, 2 and 4 bytes
            for (long span : new long[] {0xFFL, 0xFFFFL, 0xFFFF_FFFFL}) {
                batches.add(everyType(2, row -> row == 0 ? -5 : -5 + span, 0, random));
            }
            assertReadBack(batches, write(batches, true), true);
        }
        finally {
            batches.forEach(VectorSchemaRoot::close);
        }
    }

    @Test
    void joinRowsOfAKeyAndAPriceTakeAThirdOfTheirIpcBytes()
            throws IOException
    {
        Schema schema = new Schema(List.of(
                Field.notNullable("key", new ArrowType.Int(64, true)),
                Field.notNullable("price", new ArrowType.Decimal(15, 2, 128))));
        Random random = new Random(7);
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
            BigIntVector keys = (BigIntVector) batch.getVector(0);
            DecimalVector prices = (DecimalVector) batch.getVector(1);
            for (int row = 0; row < 8192; row++) {
                keys.setSafe(row, 1 + random.nextInt(6_000_000));
                prices.setSafe(row, BigDecimal.valueOf(90_000 + random.nextInt(10_400_000), 2));
            }
            batch.setRowCount(8192);
            ByteArrayOutputStream packed = new ByteArrayOutputStream();
            BatchStreamWriter packedWriter = BatchEncoding.PACKED.newWriter(packed, schema);
            packedWriter.write(batch);
            packedWriter.finish();
            ByteArrayOutputStream ipc = new ByteArrayOutputStream();
            BatchStreamWriter ipcWriter = BatchEncoding.ARROW_IPC.newWriter(ipc, schema);
            ipcWriter.write(batch);
            ipcWriter.finish();
            // 4 + 4 bytes a row against 8 + 16
            assertThat(packed.size()).isLessThan(8 * 8192 + 100);
            assertThat(ipc.size()).isGreaterThan(24 * 8192);
            assertReadBack(List.of(batch), packed.toByteArray(), false);
        }
    }

    @Test
    void emptyBatchesAndSchemasWithoutColumnsRoundTrip()
            throws IOException
    {
        Random random = new Random(3);
        try (VectorSchemaRoot empty = everyType(0, row -> row, 0, random);
                VectorSchemaRoot some = everyType(5, row -> row, 0.5, random)) {
            assertReadBack(List.of(empty, some, empty), write(List.of(empty, some, empty), true), true);
        }
        Schema noColumns = new Schema(List.of());
        try (VectorSchemaRoot rowsOnly = VectorSchemaRoot.create(noColumns, allocator)) {
            rowsOnly.setRowCount(42);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BatchStreamWriter writer = BatchEncoding.PACKED.newWriter(out, noColumns);
            writer.write(rowsOnly);
            writer.finish();
            try (BatchStreamReader reader = BatchEncoding.PACKED.newReader(new ByteArrayInputStream(out.toByteArray()), noColumns, allocator)) {
                try (VectorSchemaRoot read = reader.next()) {
                    assertThat(read.getRowCount()).isEqualTo(42);
                }
                assertThat(reader.next()).isNull();
            }
        }
    }

    @Test
    void onlyFlatSchemasOfPackedTypesArePacked()
    {
        assertThat(BatchEncoding.forSpill(everyTypeSchema())).isEqualTo(BatchEncoding.PACKED);
        Field list = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", new ArrowType.Int(64, true))));
        assertThat(BatchEncoding.forSpill(new Schema(List.of(Field.nullable("k", new ArrowType.Int(64, true)), list)))).isEqualTo(BatchEncoding.ARROW_IPC);
        assertThat(BatchEncoding.forSpill(new Schema(List.of(Field.nullable("d", new ArrowType.Decimal(60, 2, 256)))))).isEqualTo(BatchEncoding.ARROW_IPC);
        assertThatThrownBy(() -> BatchEncoding.PACKED.newWriter(new ByteArrayOutputStream(), new Schema(List.of(list))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column l")
                .hasMessageContaining("cannot be packed");
    }

    @Test
    void aForeignOrTruncatedStreamFailsClearly()
            throws IOException
    {
        Schema schema = everyTypeSchema();
        assertThatThrownBy(() -> BatchEncoding.PACKED.newReader(new ByteArrayInputStream(new byte[] {-1, -1, -1, -1, 0, 0, 0, 0}), schema, allocator))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not a packed batch stream");
        byte[] file;
        try (VectorSchemaRoot batch = everyType(100, row -> row * 3, 0.2, new Random(5))) {
            file = write(List.of(batch), false);
        }
        for (int cut : new int[] {file.length / 3, file.length - 5}) {
            try (BatchStreamReader reader = BatchEncoding.PACKED.newReader(new ByteArrayInputStream(Arrays.copyOf(file, cut)), schema, allocator)) {
                assertThatThrownBy(reader::next).isInstanceOf(EOFException.class).hasMessageContaining("packed batch stream ends");
            }
        }
    }

    private byte[] write(List<VectorSchemaRoot> batches, boolean throughExchangeStream)
            throws IOException
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        OutputStream out = throughExchangeStream ? ChunkedOutputStream.encrypted(bytes, "f", keyManagement(), CompressionCodec.NONE, 4096) : bytes;
        BatchStreamWriter writer = BatchEncoding.PACKED.newWriter(out, batches.get(0).getSchema());
        for (VectorSchemaRoot batch : batches) {
            writer.write(batch);
            if (out instanceof ChunkedOutputStream chunked) {
                // as a partitioned spill does after each write-out
                chunked.endChunk();
            }
        }
        writer.finish();
        out.close();
        return bytes.toByteArray();
    }

    private void assertReadBack(List<VectorSchemaRoot> expected, byte[] file, boolean throughExchangeStream)
            throws IOException
    {
        InputStream in = throughExchangeStream
                ? ChunkedInputStream.open(new ByteArrayInputStream(file), "f", Optional.of(keyManagement()), true)
                : new ByteArrayInputStream(file);
        try (BatchStreamReader reader = BatchEncoding.PACKED.newReader(in, expected.get(0).getSchema(), allocator)) {
            for (VectorSchemaRoot batch : expected) {
                try (VectorSchemaRoot read = reader.next()) {
                    assertThat(read.getSchema()).isEqualTo(batch.getSchema());
                    assertThat(read.getRowCount()).isEqualTo(batch.getRowCount());
                    for (int column = 0; column < batch.getFieldVectors().size(); column++) {
                        FieldVector want = batch.getVector(column);
                        FieldVector got = read.getVector(column);
                        assertThat(got.getNullCount()).as(want.getName()).isEqualTo(want.getNullCount());
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            assertThat(comparable(got.getObject(row))).as("%s row %s", want.getName(), row).isEqualTo(comparable(want.getObject(row)));
                        }
                    }
                }
            }
            assertThat(reader.next()).isNull();
        }
    }

    private static Object comparable(Object value)
    {
        return value instanceof byte[] bytes ? Arrays.toString(bytes) : value;
    }

    private KeyManagementService keyManagement;

    private KeyManagementService keyManagement()
            throws IOException
    {
        if (keyManagement == null) {
            keyManagement = new LocalKeyManagementService(temporary.resolve("kms"), Optional.empty());
        }
        return keyManagement;
    }

    private static Schema everyTypeSchema()
    {
        return new Schema(List.of(
                Field.nullable("bigint", new ArrowType.Int(64, true)),
                Field.nullable("int", new ArrowType.Int(32, true)),
                Field.nullable("smallint", new ArrowType.Int(16, true)),
                Field.nullable("tinyint", new ArrowType.Int(8, true)),
                Field.nullable("date", new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY)),
                Field.nullable("timestamp", new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, "UTC")),
                Field.nullable("price", new ArrowType.Decimal(15, 2, 128)),
                Field.nullable("wide", new ArrowType.Decimal(38, 0, 128)),
                Field.nullable("double", new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)),
                Field.nullable("fixed", new ArrowType.FixedSizeBinary(3)),
                Field.nullable("bool", ArrowType.Bool.INSTANCE),
                Field.nullable("varchar", ArrowType.Utf8.INSTANCE),
                Field.nullable("varbinary", ArrowType.Binary.INSTANCE)));
    }

    /** A batch of every packed type: integers from {@code value} (truncated to each width), NULLs at random. */
    private VectorSchemaRoot everyType(int rows, LongUnaryOperator value, double nulls, Random random)
    {
        VectorSchemaRoot batch = VectorSchemaRoot.create(everyTypeSchema(), allocator);
        try {
            for (int row = 0; row < rows; row++) {
                long v = value.applyAsLong(row);
                int at = row;
                boolean isNull = random.nextDouble() < nulls;
                if (isNull) {
                    batch.getFieldVectors().forEach(vector -> vector.setNull(at));
                    // variable-width vectors need their offsets filled up to here
                    ((VarCharVector) batch.getVector("varchar")).setSafe(at, new byte[0]);
                    ((VarCharVector) batch.getVector("varchar")).setNull(at);
                    ((VarBinaryVector) batch.getVector("varbinary")).setSafe(at, new byte[0]);
                    ((VarBinaryVector) batch.getVector("varbinary")).setNull(at);
                    continue;
                }
                ((BigIntVector) batch.getVector("bigint")).setSafe(at, v);
                ((IntVector) batch.getVector("int")).setSafe(at, (int) v);
                ((SmallIntVector) batch.getVector("smallint")).setSafe(at, (short) v);
                ((TinyIntVector) batch.getVector("tinyint")).setSafe(at, (byte) v);
                ((DateDayVector) batch.getVector("date")).setSafe(at, (int) v);
                ((TimeStampMicroTZVector) batch.getVector("timestamp")).setSafe(at, v);
                ((DecimalVector) batch.getVector("price")).setSafe(at, BigDecimal.valueOf(v % 10_000_000_000_000L, 2));
                // beyond 64 bits for a third of the rows: that batch keeps 16 bytes a value
                BigInteger wide = row % 3 == 0 ? BigInteger.valueOf(v).shiftLeft(40) : BigInteger.valueOf(v);
                ((DecimalVector) batch.getVector("wide")).setSafe(at, new BigDecimal(wide));
                ((Float8Vector) batch.getVector("double")).setSafe(at, v / 3.0);
                ((FixedSizeBinaryVector) batch.getVector("fixed")).setSafe(at, new byte[] {(byte) v, (byte) (v >> 8), (byte) row});
                ((BitVector) batch.getVector("bool")).setSafe(at, (int) (v & 1));
                String text = row % 7 == 0 ? "" : "ø" + v + "-".repeat(row % 5);
                ((VarCharVector) batch.getVector("varchar")).setSafe(at, text.getBytes(StandardCharsets.UTF_8));
                ((VarBinaryVector) batch.getVector("varbinary")).setSafe(at, Long.toString(v, 36).getBytes(StandardCharsets.US_ASCII));
            }
            batch.setRowCount(rows);
            return batch;
        }
        catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }
}
