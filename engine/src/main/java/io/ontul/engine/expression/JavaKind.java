package io.ontul.engine.expression;

import org.apache.calcite.rel.type.RelDataType;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * How generated code holds a value of a SQL type: DECIMAL as an unscaled long, DATE as epoch
 * days, TIME as milliseconds of the day, TIMESTAMP as epoch milliseconds or microseconds,
 * day-time intervals as milliseconds and year-month intervals as months, BINARY and VARBINARY as
 * byte arrays, UUID as its canonical text, ARRAY as a List ({@link ArrayValues}).
 */
enum JavaKind
{
    BOOLEAN("boolean", "false"),
    INT("int", "0"),
    LONG("long", "0L"),
    DOUBLE("double", "0.0"),
    STRING("String", "null"),
    BYTES("byte[]", "null"),
    LIST("java.util.List", "null"),
    /** DECIMAL in kernels compiled for values of more than 18 digits ({@link WideDecimals}); {@link #of} never gives it. */
    WIDE_DECIMAL("java.math.BigDecimal", "null");

    final String javaType;
    final String zero;

    JavaKind(String javaType, String zero)
    {
        this.javaType = javaType;
        this.zero = zero;
    }

    static JavaKind of(RelDataType type)
    {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> BOOLEAN;
            case TINYINT, SMALLINT, INTEGER, DATE, TIME, NULL -> INT;
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ -> LONG;
            case REAL, FLOAT, DOUBLE -> DOUBLE;
            case CHAR, VARCHAR, UUID -> STRING;
            case BINARY, VARBINARY -> BYTES;
            case ARRAY -> LIST;
            default -> {
                if (type.getSqlTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_YEAR_MONTH
                        || type.getSqlTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME) {
                    yield LONG;
                }
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "Type " + type.getFullTypeString() + " is not supported in expressions");
            }
        };
    }
}
