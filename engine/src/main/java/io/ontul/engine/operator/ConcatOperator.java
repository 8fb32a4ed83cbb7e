package io.ontul.engine.operator;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;


/** UNION ALL: the batches of each input in turn, relabelled with the output schema. */
public final class ConcatOperator
        implements Operator
{
    private final OperatorContext context;
    private final List<Operator> inputs;
    private final Schema schema;
    private int current;

    public ConcatOperator(OperatorContext context, List<Operator> inputs, Schema schema)
    {
        this.context = context;
        this.inputs = List.copyOf(inputs);
        this.schema = schema;
    }

    @Override
    public VectorSchemaRoot next()
    {
        while (current < inputs.size()) {
            VectorSchemaRoot batch = inputs.get(current).next();
            if (batch == null) {
                current++;
                continue;
            }
            try (batch) {
                FieldVector[] vectors = new FieldVector[schema.getFields().size()];
                for (int i = 0; i < vectors.length; i++) {
                    FieldVector target = schema.getFields().get(i).createVector(context.allocator());
                    FieldVector source = batch.getVector(i);
                    if (target.getMinorType() == source.getMinorType()) {
                        TransferPair transfer = source.makeTransferPair(target);
                        transfer.transfer();
                    }
                    else {
                        target.close();
                        throw new IllegalStateException("UNION input column " + i + " has type " + source.getMinorType() + ", expected " + target.getMinorType());
                    }
                    vectors[i] = target;
                }
                return Batches.root(schema, vectors, batch.getRowCount());
            }
        }
        return null;
    }

    @Override
    public void close()
    {
        Batches.closeAll(inputs);
    }
}
