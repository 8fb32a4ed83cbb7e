package io.ontul.server.flight;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * How the columns of a bulk-ingest stream become table columns. A new table takes the stream's
 * column names, nullability and types, each mapped to the nearest type a table column can have
 * ({@link io.ontul.spi.TableHandle}): LargeUtf8 becomes Utf8, Date(MILLISECOND) Date(DAY), any
 * Time Time(MILLISECOND), Timestamp(SECOND) Timestamp(MILLISECOND), Timestamp(NANOSECOND)
 * Timestamp(MICROSECOND), unsigned integers the next wider signed ones. Finer time units are
 * truncated. An existing table takes the stream's columns by position when each converts to
 * its column type without loss of range (also widening integers, REAL to DOUBLE, DECIMAL to a
 * wider DECIMAL of the same scale); CHAR(n) values are padded, over-long text fails.
 */
public final class IngestColumns
{
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;
    /** The column goes in as the stream sent it. */
    private static final Conversion UNCHANGED = (input, row, output) -> {
        throw new IllegalStateException("an unchanged column is not copied");
    };

    private final String table;
    private final List<Field> columns;
    private final List<Conversion> conversions;

    private IngestColumns(String table, List<Field> columns, List<Conversion> conversions)
    {
        this.table = table;
        this.columns = List.copyOf(columns);
        this.conversions = List.copyOf(conversions);
    }

    /** The columns of a new table holding the stream's rows. */
    public static Schema newTable(Schema stream)
    {
        List<Field> fields = new ArrayList<>();
        for (Field field : stream.getFields()) {
            fields.add(new Field(field.getName(), new FieldType(field.isNullable(), columnType(field), null), null));
        }
        return new Schema(fields);
    }

    /** How the stream's columns go into the table's; fails when they do not fit. */
    public static IngestColumns into(String table, Schema tableColumns, Schema stream)
    {
        List<Field> targets = tableColumns.getFields();
        List<Field> sources = stream.getFields();
        if (targets.size() != sources.size()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Table '%s' has %d columns, the ingested data %d", table, targets.size(), sources.size());
        }
        List<Conversion> conversions = new ArrayList<>();
        for (int column = 0; column < targets.size(); column++) {
            conversions.add(conversion(table, sources.get(column), targets.get(column)));
        }
        return new IngestColumns(table, targets, conversions);
    }

    /**
     * The batch with the table's columns. The result shares the vectors that need no
     * conversion with {@code batch}; closing it frees only the converted ones.
     */
    public ConvertedBatch convert(VectorSchemaRoot batch, BufferAllocator allocator)
    {
        List<FieldVector> vectors = new ArrayList<>();
        List<FieldVector> owned = new ArrayList<>();
        try {
            for (int column = 0; column < columns.size(); column++) {
                FieldVector source = batch.getVector(column);
                Conversion conversion = conversions.get(column);
                if (conversion == UNCHANGED) {
                    vectors.add(source);
                    continue;
                }
                FieldVector target = columns.get(column).createVector(allocator);
                owned.add(target);
                target.setInitialCapacity(batch.getRowCount());
                target.allocateNew();
                for (int row = 0; row < batch.getRowCount(); row++) {
                    if (source.isNull(row)) {
                        target.setNull(row);
                    }
                    else {
                        conversion.copy(source, row, target);
                    }
                }
                target.setValueCount(batch.getRowCount());
                vectors.add(target);
            }
        }
        catch (RuntimeException e) {
            owned.forEach(FieldVector::close);
            throw e;
        }
        return new ConvertedBatch(new VectorSchemaRoot(columns, vectors, batch.getRowCount()), owned);
    }

    /** A batch in the table's columns; close it to free the vectors converted for it. */
    public record ConvertedBatch(VectorSchemaRoot root, List<FieldVector> owned)
            implements AutoCloseable
    {
        @Override
        public void close()
        {
            owned.forEach(FieldVector::close);
        }
    }

    /** Copies one non-null value from the stream's vector into the table's. */
    private interface Conversion
    {
        void copy(FieldVector source, int row, FieldVector target);
    }

    private static ArrowType columnType(Field field)
    {
        ArrowType type = field.getType();
        if (type instanceof ArrowType.Bool || type instanceof ArrowType.Utf8) {
            return type;
        }
        if (type instanceof ArrowType.LargeUtf8) {
            return ArrowType.Utf8.INSTANCE;
        }
        if (type instanceof ArrowType.Int integer && (integer.getIsSigned() || integer.getBitWidth() < 64)) {
            return new ArrowType.Int(integer.getIsSigned() ? integer.getBitWidth() : integer.getBitWidth() * 2, true);
        }
        if (type instanceof ArrowType.FloatingPoint floating && floating.getPrecision() != FloatingPointPrecision.HALF) {
            return type;
        }
        if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
            return type;
        }
        if (type instanceof ArrowType.Date) {
            return new ArrowType.Date(DateUnit.DAY);
        }
        if (type instanceof ArrowType.Time) {
            return new ArrowType.Time(TimeUnit.MILLISECOND, 32);
        }
        if (type instanceof ArrowType.Timestamp timestamp && timestamp.getTimezone() == null) {
            TimeUnit unit = switch (timestamp.getUnit()) {
                case SECOND, MILLISECOND -> TimeUnit.MILLISECOND;
                case MICROSECOND, NANOSECOND -> TimeUnit.MICROSECOND;
            };
            return new ArrowType.Timestamp(unit, null);
        }
        throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Column '%s' has type %s, which tables cannot hold%s", field.getName(), type,
                type instanceof ArrowType.Timestamp ? " (TIMESTAMP WITH TIME ZONE is not supported: send timestamps without a time zone)" : "");
    }

    private static Conversion conversion(String table, Field source, Field target)
    {
        ArrowType from = source.getType();
        ArrowType to = target.getType();
        if (to instanceof ArrowType.Utf8 && (from instanceof ArrowType.Utf8 || from instanceof ArrowType.LargeUtf8)) {
            ColumnTypes.SqlType declared = ColumnTypes.sqlType(target);
            if (from instanceof ArrowType.Utf8 && declared.precision() == null) {
                return UNCHANGED;
            }
            return text(table, target.getName(), declared);
        }
        if (from.equals(to)) {
            return UNCHANGED;
        }
        if (to instanceof ArrowType.Int toInt && from instanceof ArrowType.Int fromInt
                && (fromInt.getIsSigned() ? fromInt.getBitWidth() <= toInt.getBitWidth() : fromInt.getBitWidth() < toInt.getBitWidth())) {
            return (input, row, output) -> ((BaseIntVector) output).setWithPossibleTruncate(row, ((BaseIntVector) input).getValueAsLong(row));
        }
        if (to instanceof ArrowType.FloatingPoint toFloat && toFloat.getPrecision() == FloatingPointPrecision.DOUBLE
                && from instanceof ArrowType.FloatingPoint fromFloat && fromFloat.getPrecision() == FloatingPointPrecision.SINGLE) {
            return (input, row, output) -> ((Float8Vector) output).setSafe(row, ((Float4Vector) input).get(row));
        }
        if (to instanceof ArrowType.Decimal toDecimal && from instanceof ArrowType.Decimal fromDecimal
                && fromDecimal.getBitWidth() == 128 && fromDecimal.getScale() == toDecimal.getScale() && fromDecimal.getPrecision() <= toDecimal.getPrecision()) {
            return (input, row, output) -> ((DecimalVector) output).setSafe(row, (BigDecimal) input.getObject(row));
        }
        if (to instanceof ArrowType.Date toDate && toDate.getUnit() == DateUnit.DAY && from instanceof ArrowType.Date) {
            return (input, row, output) -> ((DateDayVector) output).setSafe(row, (int) Math.floorDiv(((DateMilliVector) input).get(row), 86_400_000L));
        }
        if (to instanceof ArrowType.Time toTime && toTime.getUnit() == TimeUnit.MILLISECOND && from instanceof ArrowType.Time fromTime) {
            long nanosPerUnit = nanos(fromTime.getUnit());
            return (input, row, output) -> ((TimeMilliVector) output).setSafe(row, (int) (Math.floorMod(timeValue(input, row) * nanosPerUnit, NANOS_PER_DAY) / 1_000_000));
        }
        if (to instanceof ArrowType.Timestamp toTimestamp && toTimestamp.getTimezone() == null
                && from instanceof ArrowType.Timestamp fromTimestamp && fromTimestamp.getTimezone() == null) {
            long fromNanos = nanos(fromTimestamp.getUnit());
            long toNanos = nanos(toTimestamp.getUnit());
            return (input, row, output) -> {
                long value = ((TimeStampVector) input).get(row);
                ((TimeStampVector) output).setSafe(row, fromNanos >= toNanos ? Math.multiplyExact(value, fromNanos / toNanos) : Math.floorDiv(value, toNanos / fromNanos));
            };
        }
        throw OntulException.userError(ErrorCode.TYPE_MISMATCH, "Column '%s' of table '%s' has type %s: cannot ingest %s into it",
                target.getName(), table, ColumnTypes.sqlType(target).name(), from);
    }

    /** Text into CHAR(n) (padded), VARCHAR(n) (length checked) or VARCHAR. */
    private static Conversion text(String table, String column, ColumnTypes.SqlType declared)
    {
        Integer length = declared.precision();
        boolean fixed = declared.name().equals("CHAR");
        return (input, row, output) -> {
            byte[] bytes = input instanceof LargeVarCharVector large ? large.get(row) : ((VarCharVector) input).get(row);
            if (length != null) {
                String value = new String(bytes, UTF_8);
                int characters = value.codePointCount(0, value.length());
                if (characters > length) {
                    throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Value of %d characters is too long for column '%s' of table '%s', a %s(%d)",
                            characters, column, table, declared.name(), length);
                }
                if (fixed && characters < length) {
                    bytes = (value + " ".repeat(length - characters)).getBytes(UTF_8);
                }
            }
            ((VarCharVector) output).setSafe(row, bytes);
        };
    }

    private static long timeValue(FieldVector vector, int row)
    {
        if (vector instanceof TimeSecVector seconds) {
            return seconds.get(row);
        }
        if (vector instanceof TimeMilliVector millis) {
            return millis.get(row);
        }
        if (vector instanceof TimeMicroVector micros) {
            return micros.get(row);
        }
        return ((TimeNanoVector) vector).get(row);
    }

    private static long nanos(TimeUnit unit)
    {
        return switch (unit) {
            case SECOND -> 1_000_000_000L;
            case MILLISECOND -> 1_000_000L;
            case MICROSECOND -> 1_000L;
            case NANOSECOND -> 1L;
        };
    }
}
