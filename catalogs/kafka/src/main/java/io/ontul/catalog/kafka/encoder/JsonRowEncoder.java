package io.ontul.catalog.kafka.encoder;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;

import io.ontul.catalog.kafka.decoder.JsonRowDecoder;
import io.ontul.catalog.kafka.decoder.TimestampText;

/**
 * Writes rows as JSON objects that {@link JsonRowDecoder} reads back to the same values: one field
 * per declared column (NULL as JSON null), dates, times and timestamps as ISO-8601 text without a
 * zone, decimals as plain numbers. Bind it to a batch with {@link #bind}; not thread-safe.
 */
public final class JsonRowEncoder
{
    private static final JsonFactory FACTORY = JsonFactory.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
    private static final DateTimeFormatter TIME_FORMAT = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private final List<Field> columns;
    private final ByteArrayBuilder buffer = new ByteArrayBuilder();
    private final List<FieldVector> vectors = new ArrayList<>();

    /** @param columns the table's declared columns */
    public JsonRowEncoder(List<Field> columns)
    {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
    }

    /** Takes the columns of a batch by name; a declared column the batch lacks is written as null. */
    public void bind(VectorSchemaRoot batch)
    {
        vectors.clear();
        for (Field column : columns) {
            vectors.add(batch.getSchema().getFields().stream().anyMatch(field -> field.getName().equals(column.getName())) ? batch.getVector(column.getName()) : null);
        }
    }

    /** The JSON object of one row of the bound batch. */
    public byte[] encode(int row)
    {
        buffer.reset();
        try (JsonGenerator generator = FACTORY.createGenerator(buffer)) {
            generator.writeStartObject();
            for (int column = 0; column < columns.size(); column++) {
                generator.writeFieldName(columns.get(column).getName());
                FieldVector vector = vectors.get(column);
                if (vector == null || vector.isNull(row)) {
                    generator.writeNull();
                }
                else {
                    writeValue(generator, vector, row);
                }
            }
            generator.writeEndObject();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    private static void writeValue(JsonGenerator generator, FieldVector vector, int row)
            throws IOException
    {
        if (vector instanceof BitVector bits) {
            generator.writeBoolean(bits.get(row) != 0);
        }
        else if (vector instanceof TinyIntVector tinyInts) {
            generator.writeNumber(tinyInts.get(row));
        }
        else if (vector instanceof SmallIntVector smallInts) {
            generator.writeNumber(smallInts.get(row));
        }
        else if (vector instanceof IntVector ints) {
            generator.writeNumber(ints.get(row));
        }
        else if (vector instanceof BigIntVector bigInts) {
            generator.writeNumber(bigInts.get(row));
        }
        else if (vector instanceof Float4Vector floats) {
            generator.writeNumber(floats.get(row));
        }
        else if (vector instanceof Float8Vector doubles) {
            generator.writeNumber(doubles.get(row));
        }
        else if (vector instanceof DecimalVector decimals) {
            generator.writeNumber(decimals.getObject(row));
        }
        else if (vector instanceof VarCharVector strings) {
            byte[] bytes = strings.get(row);
            generator.writeUTF8String(bytes, 0, bytes.length);
        }
        else if (vector instanceof DateDayVector dates) {
            generator.writeString(LocalDate.ofEpochDay(dates.get(row)).toString());
        }
        else if (vector instanceof TimeMilliVector times) {
            generator.writeString(LocalTime.ofNanoOfDay(times.get(row) * 1_000_000L).format(TIME_FORMAT));
        }
        else if (vector instanceof TimeStampMilliVector timestamps) {
            generator.writeString(TimestampText.formatEpochMillis(timestamps.get(row)));
        }
        else if (vector instanceof TimeStampMicroVector timestamps) {
            generator.writeString(TimestampText.formatEpochMicros(timestamps.get(row)));
        }
        else {
            throw new IllegalArgumentException("Cannot write a " + vector.getField().getType() + " column as JSON");
        }
    }
}
