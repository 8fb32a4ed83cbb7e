package io.ontul.engine.plan;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
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
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;

import io.ontul.engine.expression.Functions;
import io.ontul.engine.expression.Vectors;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;

/** A constant table (VALUES): literals written straight into vectors. */
public final class ValuesNode
        extends PlanNode
{
    private final List<List<RexLiteral>> tuples;

    public ValuesNode(RelDataType rowType, List<? extends List<RexLiteral>> tuples)
    {
        super(rowType, List.of());
        this.tuples = tuples.stream().map(List::<RexLiteral>copyOf).toList();
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new Operator()
        {
            private boolean done;

            @Override
            public VectorSchemaRoot next()
            {
                if (done) {
                    return null;
                }
                done = true;
                FieldVector[] vectors = Batches.allocate(schema(), task.query().allocator(), tuples.size());
                try {
                    for (int row = 0; row < tuples.size(); row++) {
                        for (int column = 0; column < vectors.length; column++) {
                            write(vectors[column], row, tuples.get(row).get(column), rowType().getFieldList().get(column).getType());
                        }
                    }
                }
                catch (RuntimeException e) {
                    // a value that does not fit its column: nothing written so far stays allocated
                    for (FieldVector vector : vectors) {
                        vector.close();
                    }
                    throw e;
                }
                return Batches.root(schema(), vectors, tuples.size());
            }

            @Override
            public void close() {}
        };
    }

    static void write(FieldVector vector, int row, RexLiteral literal, RelDataType type)
    {
        if (literal.isNull()) {
            vector.setNull(row);
            return;
        }
        if (vector instanceof BitVector v) {
            v.setSafe(row, literal.getValueAs(Boolean.class) ? 1 : 0);
        }
        else if (vector instanceof TinyIntVector v) {
            v.setSafe(row, literal.getValueAs(BigDecimal.class).byteValueExact());
        }
        else if (vector instanceof SmallIntVector v) {
            v.setSafe(row, literal.getValueAs(BigDecimal.class).shortValueExact());
        }
        else if (vector instanceof IntVector v) {
            v.setSafe(row, literal.getValueAs(BigDecimal.class).intValueExact());
        }
        else if (vector instanceof BigIntVector v) {
            v.setSafe(row, literal.getValueAs(BigDecimal.class).longValueExact());
        }
        else if (vector instanceof Float4Vector v) {
            v.setSafe(row, literal.getValueAs(Double.class).floatValue());
        }
        else if (vector instanceof Float8Vector v) {
            v.setSafe(row, literal.getValueAs(Double.class));
        }
        else if (vector instanceof DecimalVector v) {
            BigDecimal value = io.ontul.engine.expression.WideDecimals.checkPrecision(
                    literal.getValueAs(BigDecimal.class).setScale(v.getScale(), java.math.RoundingMode.HALF_UP), v.getPrecision(), v.getScale());
            v.setSafe(row, value);
        }
        else if (vector instanceof VarCharVector v && type.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR) {
            v.setSafe(row, Functions.padChar(literal.getValueAs(String.class), type.getPrecision()).getBytes(StandardCharsets.UTF_8));
        }
        else if (vector instanceof BaseVariableWidthVector v) {
            v.setSafe(row, Vectors.literalBytes(literal));
        }
        else if (vector instanceof DateDayVector v) {
            v.setSafe(row, literal.getValueAs(Integer.class));
        }
        else if (vector instanceof TimeMilliVector v) {
            v.setSafe(row, literal.getValueAs(Integer.class));
        }
        else if (vector instanceof TimeStampMilliVector v) {
            v.setSafe(row, literal.getValueAs(Long.class));
        }
        else if (vector instanceof TimeStampMicroVector v) {
            v.setSafe(row, Functions.parseTimestamp(literal.getValueAs(org.apache.calcite.util.TimestampString.class).toString(), true));
        }
        else if (vector instanceof org.apache.arrow.vector.TimeStampMilliTZVector || vector instanceof org.apache.arrow.vector.TimeStampMicroTZVector) {
            ((org.apache.arrow.vector.TimeStampVector) vector).setSafe(row,
                    io.ontul.engine.expression.ZonedTimestamps.parse(literal.getValue().toString(), vector instanceof org.apache.arrow.vector.TimeStampMicroTZVector));
        }
        else {
            throw new IllegalStateException("unsupported VALUES column " + vector.getMinorType());
        }
    }

    @Override
    public String describe()
    {
        return "Values rows=" + tuples.size();
    }
}
