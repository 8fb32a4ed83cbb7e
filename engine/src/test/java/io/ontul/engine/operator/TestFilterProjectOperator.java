package io.ontul.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.engine.expression.KernelCompiler;
import io.ontul.engine.expression.ProjectionKernel;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.engine.query.QueryContext;

/**
 * Filter and projection: computed columns evaluated per row, bare columns moved from the input when
 * every row passes and gathered otherwise, sparse output in buffers of its size; every value
 * checked against the input's rows computed here, NULLs included.
 */
class TestFilterProjectOperator
{
    private static final int ROWS = 8192;

    private final JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    private final RexBuilder rex = new RexBuilder(types);
    private final RelDataType bigint = types.createTypeWithNullability(types.createSqlType(SqlTypeName.BIGINT), true);
    private final RelDataType varchar = types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARCHAR), true);
    private RootAllocator root;
    private ExecutorService executor;
    private QueryContext context;

    @BeforeEach
    void setUp()
    {
        root = new RootAllocator();
        executor = Executors.newFixedThreadPool(1);
        context = new QueryContext("filter", root, 64L << 20, executor, 1, rex);
    }

    @AfterEach
    void tearDown()
    {
        context.close();
        executor.shutdownNow();
        assertThat(root.getAllocatedMemory()).as("every batch closed").isZero();
        root.close();
    }

    @Test
    void withoutFilterTheBareColumnsAreMovedNotCopied()
    {
        // SELECT s, k * 2, k, k
        List<RexNode> projections = List.of(ref(1), times(ref(0), 2), ref(0), ref(0));
        List<VectorSchemaRoot> output = run(null, projections, 2);
        assertThat(output).hasSize(2);
        for (int b = 0; b < output.size(); b++) {
            try (VectorSchemaRoot batch = output.get(b)) {
                assertThat(batch.getRowCount()).isEqualTo(ROWS);
                for (int i = 0; i < ROWS; i++) {
                    long row = (long) b * ROWS + i;
                    assertThat(batch.getVector(0).getObject(i) == null ? null : batch.getVector(0).getObject(i).toString()).isEqualTo(string(row));
                    assertThat(batch.getVector(1).getObject(i)).isEqualTo(key(row) == null ? null : key(row) * 2);
                    assertThat(batch.getVector(2).getObject(i)).isEqualTo(key(row));
                    assertThat(batch.getVector(3).getObject(i)).isEqualTo(key(row));
                }
                // the first k is the input's vector itself; the second a copy of its own
                assertThat(batch.getVector(2).getDataBuffer().memoryAddress()).isEqualTo(inputAddresses.get(b));
                assertThat(batch.getVector(3).getDataBuffer().memoryAddress()).isNotEqualTo(inputAddresses.get(b));
            }
        }
    }

    @Test
    void filteredRowsAreGatheredAndSparseOnesCompacted()
    {
        for (int keepOneIn : new int[] {2, 100}) {
            // SELECT s, k * 2, k WHERE MOD(k, keepOneIn) = 0
            RexNode filter = rex.makeCall(SqlStdOperatorTable.EQUALS, rex.makeCall(SqlStdOperatorTable.MOD, ref(0), literal(keepOneIn)), literal(0));
            List<VectorSchemaRoot> output = run(filter, List.of(ref(1), times(ref(0), 2), ref(0)), 3);
            List<Long> expected = new ArrayList<>();
            for (long row = 0; row < 3L * ROWS; row++) {
                if (key(row) != null && key(row) % keepOneIn == 0) {
                    expected.add(row);
                }
            }
            List<Long> seen = new ArrayList<>();
            for (VectorSchemaRoot batch : output) {
                try (batch) {
                    for (int i = 0; i < batch.getRowCount(); i++) {
                        long row = (Long) batch.getVector(2).getObject(i);
                        seen.add(row);
                        assertThat(batch.getVector(0).getObject(i) == null ? null : batch.getVector(0).getObject(i).toString()).isEqualTo(string(row));
                        assertThat(batch.getVector(1).getObject(i)).isEqualTo(row * 2);
                    }
                    if (keepOneIn == 100) {
                        // about 82 rows a batch: buffers for them, not for the input's 8192
                        assertThat(Batches.allocatedBytes(List.of(batch))).as("bytes held for %s rows", batch.getRowCount()).isLessThan(8L * ROWS / 8);
                    }
                }
            }
            assertThat(seen).isEqualTo(expected);
        }
    }

    private final List<Long> inputAddresses = new ArrayList<>();

    /** Runs the operator over {@code batches} input batches of (k BIGINT, s VARCHAR) and returns its output. */
    private List<VectorSchemaRoot> run(RexNode filter, List<RexNode> projections, int batches)
    {
        List<RelDataType> inputTypes = List.of(bigint, varchar);
        RelDataTypeFactory.Builder outputType = types.builder();
        for (int i = 0; i < projections.size(); i++) {
            outputType.add("c" + i, projections.get(i).getType());
        }
        ProjectionKernel kernel = KernelCompiler.compile(inputTypes, filter, projections, rex);
        Deque<VectorSchemaRoot> input = new ArrayDeque<>();
        inputAddresses.clear();
        for (int b = 0; b < batches; b++) {
            input.add(inputBatch((long) b * ROWS));
            inputAddresses.add(input.getLast().getVector(0).getDataBuffer().memoryAddress());
        }
        Operator child = new Operator()
        {
            @Override
            public VectorSchemaRoot next()
            {
                return input.poll();
            }

            @Override
            public void close()
            {
                input.forEach(VectorSchemaRoot::close);
            }
        };
        List<VectorSchemaRoot> output = new ArrayList<>();
        try (FilterProjectOperator operator = new FilterProjectOperator(context, child, kernel, ArrowTypes.toSchema(outputType.build()), null,
                KernelCompiler.bareInputs(inputTypes, projections))) {
            VectorSchemaRoot batch;
            while ((batch = operator.next()) != null) {
                output.add(batch);
            }
        }
        return output;
    }

    private VectorSchemaRoot inputBatch(long first)
    {
        BigIntVector keys = new BigIntVector("k", context.allocator());
        VarCharVector strings = new VarCharVector("s", context.allocator());
        keys.allocateNew(ROWS);
        strings.allocateNew(ROWS);
        for (int i = 0; i < ROWS; i++) {
            Long key = key(first + i);
            if (key == null) {
                keys.setNull(i);
            }
            else {
                keys.set(i, key);
            }
            String string = string(first + i);
            if (string == null) {
                strings.setNull(i);
            }
            else {
                strings.setSafe(i, string.getBytes(StandardCharsets.UTF_8));
            }
        }
        return Batches.root(new org.apache.arrow.vector.FieldVector[] {keys, strings}, ROWS);
    }

    /** Row r's key: r, NULL every 7th row. */
    private static Long key(long row)
    {
        return row % 7 == 3 ? null : row;
    }

    /** Row r's string: "row-r", NULL every 5th, empty every 11th. */
    private static String string(long row)
    {
        return row % 5 == 1 ? null : row % 11 == 0 ? "" : "row-" + row;
    }

    private RexNode ref(int column)
    {
        return rex.makeInputRef(column == 0 ? bigint : varchar, column);
    }

    private RexNode literal(long value)
    {
        return rex.makeExactLiteral(java.math.BigDecimal.valueOf(value), types.createSqlType(SqlTypeName.BIGINT));
    }

    private RexNode times(RexNode value, long factor)
    {
        return rex.makeCall(SqlStdOperatorTable.MULTIPLY, value, literal(factor));
    }
}
