package io.ontul.engine.operator;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.memory.MemoryReservation;
import io.ontul.engine.operator.aggregate.GroupByHash;


/**
 * INTERSECT and EXCEPT: counts the occurrences of each distinct row (NULLs equal) per input,
 * combining inputs left to right (INTERSECT keeps the minimum count; EXCEPT ALL subtracts, never
 * below zero; EXCEPT DISTINCT drops rows present in the other input), then emits each distinct row as many times as its final count (at most once
 * for DISTINCT).
 */
public final class SetOperationOperator
        implements Operator
{
    public enum Kind
    {
        INTERSECT, EXCEPT
    }

    private final OperatorContext context;
    private final List<Operator> inputs;
    private final Schema schema;
    private final Kind kind;
    private final boolean all;
    private GroupByHash hash;
    private long[] counts;
    private final MemoryReservation memory;
    private boolean computed;
    private int group;
    private long emittedOfGroup;

    public SetOperationOperator(OperatorContext context, List<Operator> inputs, Schema schema, Kind kind, boolean all)
    {
        this.context = requireNonNull(context, "context is null");
        this.memory = context.memoryReservation(kind.name().charAt(0) + kind.name().substring(1).toLowerCase(java.util.Locale.ROOT), false);
        this.inputs = List.copyOf(inputs);
        this.schema = requireNonNull(schema, "schema is null");
        this.kind = requireNonNull(kind, "kind is null");
        this.all = all;
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (!computed) {
            compute();
            computed = true;
        }
        int groupCount = hash.groupCount();
        FieldVector[] keys = hash.keys();
        FieldVector[] vectors = null;
        int count = 0;
        while (group < groupCount && count < Batches.TARGET_ROWS) {
            long copies = all ? counts[group] : Math.min(1, counts[group]);
            if (emittedOfGroup >= copies) {
                group++;
                emittedOfGroup = 0;
                continue;
            }
            if (vectors == null) {
                vectors = Batches.allocate(schema, context.allocator(), Batches.TARGET_ROWS);
            }
            for (int c = 0; c < vectors.length; c++) {
                vectors[c].copyFromSafe(group, count, keys[c]);
            }
            count++;
            emittedOfGroup++;
        }
        return vectors == null ? null : Batches.root(schema, vectors, count);
    }

    private void compute()
    {
        hash = new GroupByHash(context, memory, schema.getFields());
        boolean[] nulled = new boolean[schema.getFields().size()];
        counts = new long[0];
        long[] current = new long[0];
        for (int input = 0; input < inputs.size(); input++) {
            Arrays.fill(current, 0);
            Operator operator = inputs.get(input);
            for (VectorSchemaRoot next = operator.next(); next != null; next = operator.next()) {
                try (VectorSchemaRoot batch = next) {
                    int rows = batch.getRowCount();
                    int[] groupIds = new int[rows];
                    FieldVector[] columns = batch.getFieldVectors().toArray(new FieldVector[0]);
                    hash.groupIds(columns, nulled, 0, rows, groupIds);
                    if (hash.groupCount() > current.length) {
                        int length = Math.max(hash.groupCount(), current.length * 2);
                        reserve((length - current.length) * 16L);
                        current = Arrays.copyOf(current, length);
                        counts = Arrays.copyOf(counts, length);
                    }
                    for (int row = 0; row < rows; row++) {
                        current[groupIds[row]]++;
                    }
                }
                context.checkCancelled();
            }
            for (int g = 0; g < hash.groupCount(); g++) {
                if (input == 0) {
                    counts[g] = current[g];
                }
                else if (kind == Kind.INTERSECT) {
                    counts[g] = Math.min(counts[g], current[g]);
                }
                else if (all) {
                    counts[g] = Math.max(0, counts[g] - current[g]);
                }
                else if (current[g] > 0) {
                    counts[g] = 0;
                }
            }
        }
        hash.seal();
    }

    private void reserve(long bytes)
    {
        memory.grow(bytes);
    }

    @Override
    public void close()
    {
        try {
            if (hash != null) {
                hash.close();
                hash = null;
            }
        }
        finally {
            memory.close();
            Batches.closeAll(inputs);
        }
    }
}
