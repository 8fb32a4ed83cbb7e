package io.ontul.server.flight;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.arrow.flight.sql.FlightSqlColumnMetadata;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * SQL names, precision and scale of the Arrow column types tables use (see
 * {@link io.ontul.spi.TableHandle}), attached to fields as Flight SQL column metadata so that
 * JDBC's getColumns reports {@code DECIMAL}, {@code VARCHAR}, {@code DATE} with their sizes.
 */
public final class ColumnTypes
{
    /** Field metadata of Utf8 columns declared CHAR(n) or VARCHAR(n). */
    private static final String ONTUL_TYPE = "ontul.type";
    private static final Pattern LENGTH = Pattern.compile("(CHAR|VARCHAR)\\((\\d+)\\)");

    private ColumnTypes() {}

    public record SqlType(String name, Integer precision, Integer scale) {}

    public static SqlType sqlType(Field field)
    {
        ArrowType type = field.getType();
        if (type instanceof ArrowType.Bool) {
            return new SqlType("BOOLEAN", 1, null);
        }
        if (type instanceof ArrowType.Int integer) {
            return switch (integer.getBitWidth()) {
                case 8 -> new SqlType("TINYINT", 3, 0);
                case 16 -> new SqlType("SMALLINT", 5, 0);
                case 32 -> new SqlType("INTEGER", 10, 0);
                default -> new SqlType("BIGINT", 19, 0);
            };
        }
        if (type instanceof ArrowType.FloatingPoint floating) {
            return floating.getPrecision() == FloatingPointPrecision.SINGLE ? new SqlType("REAL", 7, null) : new SqlType("DOUBLE", 15, null);
        }
        if (type instanceof ArrowType.Decimal decimal) {
            return new SqlType("DECIMAL", decimal.getPrecision(), decimal.getScale());
        }
        if (type instanceof ArrowType.Utf8) {
            String declared = field.getMetadata() == null ? null : field.getMetadata().get(ONTUL_TYPE);
            Matcher matcher = declared == null ? null : LENGTH.matcher(declared.toUpperCase(Locale.ROOT));
            if (matcher != null && matcher.matches()) {
                return new SqlType(matcher.group(1), Integer.parseInt(matcher.group(2)), null);
            }
            return new SqlType("VARCHAR", null, null);
        }
        if (type instanceof ArrowType.Date) {
            return new SqlType("DATE", 10, null);
        }
        if (type instanceof ArrowType.Time time) {
            return new SqlType("TIME", 8, fractionDigits(time.getUnit()));
        }
        if (type instanceof ArrowType.Timestamp timestamp) {
            int digits = fractionDigits(timestamp.getUnit());
            return new SqlType("TIMESTAMP", 19 + (digits == 0 ? 0 : digits + 1), digits);
        }
        return new SqlType(type.toString().toUpperCase(Locale.ROOT), null, null);
    }

    private static int fractionDigits(TimeUnit unit)
    {
        return switch (unit) {
            case SECOND -> 0;
            case MILLISECOND -> 3;
            case MICROSECOND -> 6;
            case NANOSECOND -> 9;
        };
    }

    /** The table's columns with Flight SQL column metadata, for GetTables' table_schema. */
    public static Schema describe(String catalog, String schema, String table, Schema columns)
    {
        List<Field> fields = new ArrayList<>();
        for (Field field : columns.getFields()) {
            SqlType sqlType = sqlType(field);
            FlightSqlColumnMetadata.Builder metadata = new FlightSqlColumnMetadata.Builder()
                    .catalogName(catalog)
                    .schemaName(schema)
                    .tableName(table)
                    .typeName(sqlType.name())
                    .isAutoIncrement(false)
                    .isCaseSensitive(sqlType.name().endsWith("CHAR"))
                    .isReadOnly(false)
                    .isSearchable(true);
            if (sqlType.precision() != null) {
                metadata.precision(sqlType.precision());
            }
            if (sqlType.scale() != null) {
                metadata.scale(sqlType.scale());
            }
            FieldType type = new FieldType(field.isNullable(), field.getType(), field.getDictionary(), metadata.build().getMetadataMap());
            fields.add(new Field(field.getName(), type, field.getChildren()));
        }
        return new Schema(fields);
    }
}
