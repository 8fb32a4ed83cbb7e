package io.ontul.catalog.iceberg.read;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import io.ontul.catalog.iceberg.type.IcebergColumn;
import io.ontul.catalog.iceberg.type.IcebergTypes;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ScanSpec;

/**
 * Translates the filters the engine pushes down into an Iceberg expression, used to prune data
 * files by their column metrics when planning and row groups by their statistics when reading.
 * <p>
 * Only predicates whose meaning is the same in Iceberg and in SQL are translated; the others
 * become {@code true} (the engine evaluates every filter again). Not translated: predicates on
 * REAL columns (a DOUBLE literal has no exact REAL equal), ordering predicates on uuid columns
 * (Iceberg orders UUIDs as numbers, SQL as text), and values that do not fit the column's type
 * exactly. {@code LIKE 'abc%...'} becomes {@code startsWith('abc')}, a LIKE without wildcards an
 * equality.
 */
public final class IcebergFilters
{
    private IcebergFilters() {}

    public static Expression toExpression(ScanSpec scan, List<IcebergColumn> columns)
    {
        Map<String, IcebergColumn> byName = columns.stream().collect(Collectors.toMap(IcebergColumn::name, Function.identity(), (first, second) -> first));
        Expression result = Expressions.alwaysTrue();
        for (ColumnPredicate predicate : scan.predicates()) {
            Optional<Expression> translated = translate(predicate, byName);
            if (translated.isPresent()) {
                result = Expressions.and(result, translated.get());
            }
        }
        for (List<ColumnPredicate> disjunction : scan.disjunctions()) {
            Expression any = Expressions.alwaysFalse();
            boolean complete = !disjunction.isEmpty();
            for (ColumnPredicate predicate : disjunction) {
                Optional<Expression> translated = translate(predicate, byName);
                if (translated.isEmpty()) {
                    complete = false;
                    break;
                }
                any = Expressions.or(any, translated.get());
            }
            if (complete) {
                result = Expressions.and(result, any);
            }
        }
        return result;
    }

    static Optional<Expression> translate(ColumnPredicate predicate, Map<String, IcebergColumn> columns)
    {
        IcebergColumn column = columns.get(predicate.column());
        if (column == null) {
            return Optional.empty();
        }
        String name = column.name();
        Type type = column.icebergType();
        if (type.typeId() == Type.TypeID.FLOAT) {
            return Optional.empty();
        }
        List<Object> values = predicate.values();
        return switch (predicate.operator()) {
            case IS_NULL -> Optional.of(Expressions.isNull(name));
            case IS_NOT_NULL -> Optional.of(Expressions.notNull(name));
            case EQUAL -> literal(type, values.get(0)).map(value -> Expressions.equal(name, value));
            case NOT_EQUAL -> literal(type, values.get(0)).map(value -> Expressions.notEqual(name, value));
            case LESS_THAN -> ordered(type) ? literal(type, values.get(0)).map(value -> Expressions.lessThan(name, value)) : Optional.empty();
            case LESS_THAN_OR_EQUAL -> ordered(type) ? literal(type, values.get(0)).map(value -> Expressions.lessThanOrEqual(name, value)) : Optional.empty();
            case GREATER_THAN -> ordered(type) ? literal(type, values.get(0)).map(value -> Expressions.greaterThan(name, value)) : Optional.empty();
            case GREATER_THAN_OR_EQUAL -> ordered(type) ? literal(type, values.get(0)).map(value -> Expressions.greaterThanOrEqual(name, value)) : Optional.empty();
            case IN -> in(name, type, values);
            case LIKE -> like(name, type, values);
        };
    }

    private static boolean ordered(Type type)
    {
        return type.typeId() != Type.TypeID.UUID && type.typeId() != Type.TypeID.BOOLEAN;
    }

    private static Optional<Expression> in(String name, Type type, List<Object> values)
    {
        List<Object> converted = new ArrayList<>(values.size());
        for (Object value : values) {
            if (value == null) {
                continue;
            }
            Optional<Object> literal = literal(type, value);
            if (literal.isEmpty()) {
                return Optional.empty();
            }
            converted.add(literal.get());
        }
        if (converted.isEmpty()) {
            return Optional.of(Expressions.alwaysFalse());
        }
        return Optional.of(Expressions.in(name, converted.toArray()));
    }

    private static Optional<Expression> like(String name, Type type, List<Object> values)
    {
        if (type.typeId() != Type.TypeID.STRING || !(values.get(0) instanceof String pattern)) {
            return Optional.empty();
        }
        Character escape = values.size() > 1 && values.get(1) instanceof String text && text.length() == 1 ? text.charAt(0) : null;
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char character = pattern.charAt(i);
            if (escape != null && character == escape) {
                if (i + 1 >= pattern.length()) {
                    return Optional.empty();
                }
                prefix.append(pattern.charAt(++i));
                continue;
            }
            if (character == '%' || character == '_') {
                // every match starts with the text before the first wildcard
                return prefix.isEmpty() ? Optional.empty() : Optional.of(Expressions.startsWith(name, prefix.toString()));
            }
            prefix.append(character);
        }
        return Optional.of(Expressions.equal(name, prefix.toString()));
    }

    /** The value as a literal Iceberg converts exactly to the column's type, or empty. */
    static Optional<Object> literal(Type type, Object value)
    {
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(convert(type, value));
        }
        catch (ArithmeticException e) {
            return Optional.empty();
        }
    }

    private static Object convert(Type type, Object value)
    {
        return switch (type.typeId()) {
            case BOOLEAN -> value instanceof Boolean ? value : null;
            case INTEGER -> {
                Long exact = exactLong(value);
                yield exact != null && exact == exact.intValue() ? (Object) exact.intValue() : null;
            }
            case LONG -> exactLong(value);
            case DOUBLE -> {
                if (value instanceof Double) {
                    yield value;
                }
                if (value instanceof Long longValue && Math.abs(longValue) < (1L << 53)) {
                    yield (double) longValue;
                }
                if (value instanceof BigDecimal decimal && new BigDecimal(decimal.doubleValue()).compareTo(decimal) == 0) {
                    yield decimal.doubleValue();
                }
                yield null;
            }
            case DECIMAL -> {
                BigDecimal decimal = value instanceof BigDecimal exact ? exact : value instanceof Long longValue ? BigDecimal.valueOf(longValue) : null;
                if (decimal == null) {
                    yield null;
                }
                try {
                    BigDecimal scaled = decimal.setScale(((Types.DecimalType) type).scale(), RoundingMode.UNNECESSARY);
                    yield scaled.precision() <= ((Types.DecimalType) type).precision() ? scaled : null;
                }
                catch (ArithmeticException e) {
                    yield null;
                }
            }
            case STRING -> value instanceof String ? value : null;
            case UUID -> {
                if (!(value instanceof String text)) {
                    yield null;
                }
                try {
                    UUID uuid = UUID.fromString(text);
                    // only the canonical spelling compares equal as text
                    yield uuid.toString().equals(text) ? uuid : null;
                }
                catch (IllegalArgumentException e) {
                    yield null;
                }
            }
            case DATE -> value instanceof LocalDate date ? (Object) (int) date.toEpochDay() : null;
            case TIME -> value instanceof LocalTime time && time.getNano() % 1000 == 0 ? (Object) (time.toNanoOfDay() / 1000) : null;
            // timestamptz columns compare with instants, timestamp columns with local date-times
            case TIMESTAMP -> IcebergTypes.adjustsToUtc(type)
                    ? (value instanceof java.time.Instant instant && instant.getNano() % 1000 == 0 ? (Object) micros(instant) : null)
                    : (value instanceof LocalDateTime timestamp && timestamp.getNano() % 1000 == 0 ? (Object) micros(timestamp) : null);
            case TIMESTAMP_NANO -> IcebergTypes.adjustsToUtc(type)
                    ? (value instanceof java.time.Instant instant ? (Object) Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano()) : null)
                    : (value instanceof LocalDateTime timestamp ? (Object) Math.multiplyExact(micros(timestamp), 1000L) : null);
            default -> null;
        };
    }

    private static Long exactLong(Object value)
    {
        if (value instanceof Long longValue) {
            return longValue;
        }
        if (value instanceof BigDecimal decimal) {
            try {
                return decimal.longValueExact();
            }
            catch (ArithmeticException e) {
                return null;
            }
        }
        return null;
    }

    private static long micros(java.time.Instant instant)
    {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    }

    private static long micros(LocalDateTime timestamp)
    {
        long seconds = timestamp.toEpochSecond(ZoneOffset.UTC);
        return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), timestamp.getNano() / 1000);
    }
}
