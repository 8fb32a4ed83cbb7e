package io.ontul.engine.type;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Maps SQL types (Calcite) to Arrow fields and back. The mapping is the one in
 * {@link io.ontul.spi.TableHandle}'s Javadoc. Fixed-length text is Utf8 with metadata
 * {@value #TYPE_METADATA} = {@code CHAR(n)}. BINARY and VARBINARY are Binary. A UUID is Utf8 with
 * {@value #TYPE_METADATA} = {@code UUID}: its canonical text (36 lower-case characters), which
 * orders as its 16 bytes do and is what Arrow clients get (as DuckDB sends UUIDs to Arrow).
 */
public final class ArrowTypes
{
    public static final String TYPE_METADATA = io.ontul.spi.TableHandle.TYPE_METADATA;
    public static final String UUID_TYPE = io.ontul.spi.TableHandle.UUID_TYPE;
    private static final Pattern TEXT_TYPE = Pattern.compile("(CHAR|VARCHAR)\\((\\d+)\\)");

    private ArrowTypes() {}

    public static Schema toSchema(RelDataType rowType)
    {
        List<Field> fields = new ArrayList<>();
        for (RelDataTypeField field : rowType.getFieldList()) {
            fields.add(toField(field.getName(), field.getType()));
        }
        return new Schema(fields);
    }

    public static Field toField(String name, RelDataType type)
    {
        Map<String, String> metadata = null;
        ArrowType arrowType = switch (type.getSqlTypeName()) {
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case TINYINT -> new ArrowType.Int(8, true);
            case SMALLINT -> new ArrowType.Int(16, true);
            case INTEGER -> new ArrowType.Int(32, true);
            case BIGINT -> new ArrowType.Int(64, true);
            case REAL -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case FLOAT, DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL -> new ArrowType.Decimal(type.getPrecision(), type.getScale(), 128);
            case CHAR -> {
                metadata = new HashMap<>();
                metadata.put(TYPE_METADATA, "CHAR(" + type.getPrecision() + ")");
                yield ArrowType.Utf8.INSTANCE;
            }
            case VARCHAR -> {
                if (type.getPrecision() > 0 && type.getPrecision() < (1 << 20)) {
                    metadata = new HashMap<>();
                    metadata.put(TYPE_METADATA, "VARCHAR(" + type.getPrecision() + ")");
                }
                yield ArrowType.Utf8.INSTANCE;
            }
            case BINARY, VARBINARY -> ArrowType.Binary.INSTANCE;
            case UUID -> {
                metadata = new HashMap<>();
                metadata.put(TYPE_METADATA, UUID_TYPE);
                yield ArrowType.Utf8.INSTANCE;
            }
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case TIME -> new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            case TIMESTAMP -> new ArrowType.Timestamp(type.getPrecision() > 3 ? TimeUnit.MICROSECOND : TimeUnit.MILLISECOND, null);
            // an instant, as PostgreSQL's and DuckDB's timestamptz: the UTC time of it
            case TIMESTAMP_TZ -> new ArrowType.Timestamp(type.getPrecision() > 3 ? TimeUnit.MICROSECOND : TimeUnit.MILLISECOND, "UTC");
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> new ArrowType.Int(32, true);
            case INTERVAL_DAY, INTERVAL_DAY_HOUR, INTERVAL_DAY_MINUTE, INTERVAL_DAY_SECOND, INTERVAL_HOUR, INTERVAL_HOUR_MINUTE,
                    INTERVAL_HOUR_SECOND, INTERVAL_MINUTE, INTERVAL_MINUTE_SECOND, INTERVAL_SECOND -> new ArrowType.Int(64, true);
            case NULL -> new ArrowType.Int(32, true);
            case ARRAY -> null;
            default -> throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Type %s is not supported", type.getFullTypeString());
        };
        if (arrowType == null) {
            // ARRAY(T): a List whose one child holds the elements
            Field element = toField("element", type.getComponentType());
            return new Field(name, new FieldType(type.isNullable(), ArrowType.List.INSTANCE, null, null), List.of(element));
        }
        return new Field(name, new FieldType(type.isNullable(), arrowType, null, metadata), null);
    }

    public static RelDataType toRelType(RelDataTypeFactory factory, Field field)
    {
        RelDataType type = toRelTypeNotNull(factory, field);
        return factory.createTypeWithNullability(type, field.isNullable());
    }

    private static RelDataType toRelTypeNotNull(RelDataTypeFactory factory, Field field)
    {
        ArrowType type = field.getType();
        return switch (type.getTypeID()) {
            case Bool -> factory.createSqlType(SqlTypeName.BOOLEAN);
            case Int -> switch (((ArrowType.Int) type).getBitWidth()) {
                case 8 -> factory.createSqlType(SqlTypeName.TINYINT);
                case 16 -> factory.createSqlType(SqlTypeName.SMALLINT);
                case 32 -> factory.createSqlType(SqlTypeName.INTEGER);
                default -> factory.createSqlType(SqlTypeName.BIGINT);
            };
            case FloatingPoint -> factory.createSqlType(((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.SINGLE ? SqlTypeName.REAL : SqlTypeName.DOUBLE);
            case Decimal -> factory.createSqlType(SqlTypeName.DECIMAL, ((ArrowType.Decimal) type).getPrecision(), ((ArrowType.Decimal) type).getScale());
            case Utf8, LargeUtf8 -> {
                String declared = field.getMetadata() == null ? null : field.getMetadata().get(TYPE_METADATA);
                if (UUID_TYPE.equals(declared)) {
                    yield factory.createSqlType(SqlTypeName.UUID);
                }
                if (declared != null) {
                    Matcher matcher = TEXT_TYPE.matcher(declared);
                    if (matcher.matches()) {
                        yield factory.createSqlType(SqlTypeName.valueOf(matcher.group(1)), Integer.parseInt(matcher.group(2)));
                    }
                }
                yield factory.createSqlType(SqlTypeName.VARCHAR);
            }
            case Binary -> factory.createSqlType(SqlTypeName.VARBINARY);
            case List -> factory.createArrayType(toRelType(factory, field.getChildren().get(0)), -1);
            case Date -> factory.createSqlType(SqlTypeName.DATE);
            case Time -> factory.createSqlType(SqlTypeName.TIME, 3);
            case Timestamp -> factory.createSqlType(((ArrowType.Timestamp) type).getTimezone() == null ? SqlTypeName.TIMESTAMP : SqlTypeName.TIMESTAMP_TZ,
                    ((ArrowType.Timestamp) type).getUnit() == TimeUnit.MILLISECOND ? 3 : 6);
            default -> throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Column '%s' has unsupported type %s", field.getName(), type);
        };
    }

    /** The SQL name of a type as users see it in DESCRIBE and errors. */
    public static String sqlName(RelDataType type)
    {
        return switch (type.getSqlTypeName()) {
            case DECIMAL -> "DECIMAL(" + type.getPrecision() + "," + type.getScale() + ")";
            case CHAR -> "CHAR(" + type.getPrecision() + ")";
            case VARCHAR -> type.getPrecision() > 0 && type.getPrecision() < (1 << 20) ? "VARCHAR(" + type.getPrecision() + ")" : "VARCHAR";
            case TIMESTAMP -> "TIMESTAMP(" + type.getPrecision() + ")";
            case TIMESTAMP_TZ -> "TIMESTAMP(" + type.getPrecision() + ") WITH TIME ZONE";
            case FLOAT -> "DOUBLE";
            case BINARY -> "VARBINARY";
            case ARRAY -> "ARRAY(" + sqlName(type.getComponentType()) + ")";
            default -> type.getSqlTypeName().getName();
        };
    }
}
