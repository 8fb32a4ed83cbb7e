package io.ontul.engine.expression;

import org.apache.arrow.vector.DecimalVector;
import org.apache.calcite.rel.type.RelDataType;

/**
 * Vector access used by generated code and operators, and the Arrow vector class that holds
 * each SQL type.
 */
public final class Vectors
{
    private Vectors() {}

    /**
     * The unscaled value of a DECIMAL cell as a long, for operators that hold DECIMALs so (keys,
     * sort, MIN/MAX, windows): a cell of more than 18 digits is refused with a clear error, never
     * cut to its low 64 bits.
     */
    public static long readDecimal(DecimalVector vector, int index)
    {
        long offset = (long) index * DecimalVector.TYPE_WIDTH;
        long low = vector.getDataBuffer().getLong(offset);
        if (vector.getDataBuffer().getLong(offset + 8) != low >> 63) {
            throw new io.ontul.spi.OntulException(io.ontul.spi.ErrorCode.NOT_SUPPORTED, "DECIMAL value " + vector.getObject(index).toPlainString()
                    + " has more than 18 digits: arithmetic, casts and SUM take up to 38, but min_by/max_by, approx_percentile, RANGE frames over it and ARRAY elements take 18 so far");
        }
        return low;
    }

    /** Writes an unscaled long into a DECIMAL cell (sign-extended to 128 bits) and marks it set. */
    public static void writeDecimal(DecimalVector vector, int index, long unscaled)
    {
        long offset = (long) index * DecimalVector.TYPE_WIDTH;
        vector.getDataBuffer().setLong(offset, unscaled);
        vector.getDataBuffer().setLong(offset + 8, unscaled >> 63);
        org.apache.arrow.vector.BitVectorHelper.setBit(vector.getValidityBuffer(), index);
    }

    /**
     * The bytes a cell of a text, binary or UUID column holds for a literal of that type (CHAR
     * literals as written, unpadded), or null for other types.
     */
    public static byte[] literalBytes(org.apache.calcite.rex.RexLiteral literal)
    {
        return switch (literal.getType().getSqlTypeName()) {
            case CHAR, VARCHAR -> literal.getValueAs(String.class).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            case UUID -> literal.getValueAs(java.util.UUID.class).toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            case BINARY, VARBINARY -> literal.getValueAs(org.apache.calcite.avatica.util.ByteString.class).getBytes();
            default -> null;
        };
    }

    /** Marks cell {@code index} NULL, growing the vector first when the index is past its capacity. */
    public static void setNullSafe(org.apache.arrow.vector.FieldVector vector, int index)
    {
        while (vector.getValueCapacity() <= index) {
            vector.reAlloc();
        }
        vector.setNull(index);
    }

    /** Whether cells of this type are variable-width bytes (text, UUID text, binary), ordered byte by byte. */
    public static boolean heldAsBytes(RelDataType type)
    {
        return switch (type.getSqlTypeName()) {
            case CHAR, VARCHAR, UUID, BINARY, VARBINARY -> true;
            default -> false;
        };
    }

    public static String vectorClass(RelDataType type)
    {
        String simple = switch (type.getSqlTypeName()) {
            case BOOLEAN -> "BitVector";
            case TINYINT -> "TinyIntVector";
            case SMALLINT -> "SmallIntVector";
            case INTEGER, NULL -> "IntVector";
            case BIGINT -> "BigIntVector";
            case REAL -> "Float4Vector";
            case FLOAT, DOUBLE -> "Float8Vector";
            case DECIMAL -> "DecimalVector";
            case CHAR, VARCHAR, UUID -> "VarCharVector";
            case BINARY, VARBINARY -> "VarBinaryVector";
            case ARRAY -> "complex.ListVector";
            case DATE -> "DateDayVector";
            case TIME -> "TimeMilliVector";
            case TIMESTAMP -> type.getPrecision() > 3 ? "TimeStampMicroVector" : "TimeStampMilliVector";
            case TIMESTAMP_TZ -> type.getPrecision() > 3 ? "TimeStampMicroTZVector" : "TimeStampMilliTZVector";
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> "IntVector";
            default -> "BigIntVector";
        };
        return "org.apache.arrow.vector." + simple;
    }

    /**
     * Java expression reading row {@code index} of vector variable {@code vector} (not null);
     * DECIMAL cells as a BigDecimal when {@code wideDecimals}, else as an unscaled long
     * ({@link WideDecimals#REQUIRED} for a cell that does not fit one).
     */
    static String readCode(RelDataType type, String vector, String index, boolean wideDecimals)
    {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> "(" + vector + ".get(" + index + ") != 0)";
            case DECIMAL -> "io.ontul.engine.expression.WideDecimals." + (wideDecimals ? "read(" : "readLong(") + vector + ", " + index + ")";
            case CHAR, VARCHAR, UUID -> "io.ontul.engine.expression.Functions.readUtf8(" + vector + ".get(" + index + "))";
            case ARRAY -> "io.ontul.engine.expression.ArrayValues.read(" + vector + ", " + index + ")";
            case REAL -> "((double) " + vector + ".get(" + index + "))";
            case TINYINT, SMALLINT -> "((int) " + vector + ".get(" + index + "))";
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> "((long) " + vector + ".get(" + index + "))";
            default -> vector + ".get(" + index + ")";
        };
    }

    /** Java statement writing {@code value} at {@code index} (a DECIMAL held as a BigDecimal when {@code wideDecimals}). */
    static String writeCode(RelDataType type, String vector, String index, String value, boolean wideDecimals)
    {
        if (wideDecimals && type.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL) {
            return "io.ontul.engine.expression.WideDecimals.write(" + vector + ", " + index + ", " + value + ");";
        }
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> vector + ".set(" + index + ", " + value + " ? 1 : 0);";
            case TINYINT -> vector + ".set(" + index + ", (byte) " + value + ");";
            case SMALLINT -> vector + ".set(" + index + ", (short) " + value + ");";
            case REAL -> vector + ".set(" + index + ", (float) " + value + ");";
            case DECIMAL -> "io.ontul.engine.expression.Vectors.writeDecimal(" + vector + ", " + index + ", " + value + ");";
            case CHAR, VARCHAR, UUID -> vector + ".setSafe(" + index + ", " + value + ".getBytes(java.nio.charset.StandardCharsets.UTF_8));";
            case BINARY, VARBINARY -> vector + ".setSafe(" + index + ", " + value + ");";
            case ARRAY -> "io.ontul.engine.expression.ArrayValues.write(" + vector + ", " + index + ", " + value + ");";
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> vector + ".set(" + index + ", (int) " + value + ");";
            default -> vector + ".set(" + index + ", " + value + ");";
        };
    }
}
