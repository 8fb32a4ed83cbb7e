package io.ontul.engine.operator.window;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ontul.engine.expression.Vectors;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.aggregate.LongWriter;

/** Reading and writing window function values, converting between numeric representations. */
final class WindowValues
{
    private WindowValues() {}

    static boolean isFloating(FieldVector vector)
    {
        return vector instanceof Float8Vector || vector instanceof Float4Vector;
    }

    /** Decimal scale of the vector, 0 for other types. */
    static int scale(FieldVector vector)
    {
        return vector instanceof DecimalVector decimal ? decimal.getScale() : 0;
    }

    static double doubleValue(FieldVector vector, int row)
    {
        if (vector instanceof DecimalVector decimal) {
            return decimal.getObject(row).doubleValue();
        }
        return Columns.getDouble(vector, row);
    }

    static void writeLong(FieldVector out, int index, long value)
    {
        if (isFloating(out)) {
            writeDouble(out, index, value);
        }
        else if (out instanceof DecimalVector decimal && decimal.getScale() != 0) {
            writeDecimal(out, index, BigDecimal.valueOf(value));
        }
        else {
            LongWriter.write(out, index, value);
        }
    }

    static void writeDouble(FieldVector out, int index, double value)
    {
        if (out instanceof Float8Vector v) {
            v.setSafe(index, value);
        }
        else if (out instanceof Float4Vector v) {
            v.setSafe(index, (float) value);
        }
        else if (out instanceof DecimalVector) {
            writeDecimal(out, index, BigDecimal.valueOf(value));
        }
        else {
            LongWriter.write(out, index, (long) value);
        }
    }

    /** Writes an unscaled value of the given scale. */
    static void writeUnscaled(FieldVector out, int index, long unscaled, int scale)
    {
        if (out instanceof DecimalVector decimal && decimal.getScale() == scale) {
            decimal.setSafe(index, unscaled);
        }
        else if (scale == 0 && !(out instanceof DecimalVector)) {
            writeLong(out, index, unscaled);
        }
        else {
            writeDecimal(out, index, BigDecimal.valueOf(unscaled, scale));
        }
    }

    static void writeDecimal(FieldVector out, int index, BigDecimal value)
    {
        if (out instanceof DecimalVector decimal) {
            BigDecimal scaled = value.setScale(decimal.getScale(), RoundingMode.HALF_UP);
            decimal.setSafe(index, io.ontul.engine.expression.WideDecimals.checkPrecision(scaled, decimal.getPrecision(), decimal.getScale()));
        }
        else if (isFloating(out)) {
            writeDouble(out, index, value.doubleValue());
        }
        else {
            LongWriter.write(out, index, value.setScale(0, RoundingMode.DOWN).longValueExact());
        }
    }

    /** Copies a cell, converting when the vectors' types differ. */
    static void copy(FieldVector source, int row, FieldVector out, int index)
    {
        if (source.isNull(row)) {
            Vectors.setNullSafe(out, index);
        }
        else if (source.getClass() == out.getClass() && scale(source) == scale(out)) {
            out.copyFromSafe(row, index, source);
        }
        else if (isFloating(source)) {
            writeDouble(out, index, Columns.getDouble(source, row));
        }
        else if (source instanceof BaseVariableWidthVector || out instanceof BaseVariableWidthVector) {
            throw new IllegalStateException("cannot convert " + source.getMinorType() + " to " + out.getMinorType());
        }
        else if (source instanceof DecimalVector decimal) {
            writeDecimal(out, index, decimal.getObject(row));
        }
        else {
            writeUnscaled(out, index, Columns.getLong(source, row), scale(source));
        }
    }

    static void writeLiteral(FieldVector out, int index, RexLiteral literal)
    {
        if (literal == null || literal.isNull()) {
            Vectors.setNullSafe(out, index);
            return;
        }
        SqlTypeName type = literal.getType().getSqlTypeName();
        if (out instanceof BaseVariableWidthVector bytes) {
            bytes.setSafe(index, Vectors.literalBytes(literal));
        }
        else if (out instanceof BitVector bits) {
            bits.setSafe(index, literal.getValueAs(Boolean.class) ? 1 : 0);
        }
        else if (type == SqlTypeName.DATE) {
            writeLong(out, index, literal.getValueAs(Integer.class));
        }
        else if (type == SqlTypeName.TIMESTAMP || type == SqlTypeName.TIME) {
            writeLong(out, index, literal.getValueAs(Long.class));
        }
        else if (type == SqlTypeName.REAL || type == SqlTypeName.FLOAT || type == SqlTypeName.DOUBLE) {
            writeDouble(out, index, literal.getValueAs(Double.class));
        }
        else {
            writeDecimal(out, index, literal.getValueAs(BigDecimal.class));
        }
    }

    static long literalLong(RexLiteral literal)
    {
        return literal.getValueAs(BigDecimal.class).longValue();
    }
}
