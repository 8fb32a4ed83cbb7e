package io.ontul.engine.operator.aggregate;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ontul.engine.expression.ArrayValues;
import io.ontul.engine.expression.Functions;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** Creates the accumulator for an aggregate call. */
public final class Accumulators
{
    private Accumulators() {}

    /**
     * @param groupKeyPositions for GROUPING(): the position among the group keys of each
     * argument; null otherwise
     * @param groupSetMembership for GROUPING(): for each grouping set, whether each group key
     * is in it
     */
    public static Accumulator create(AggregateCall call, List<RelDataType> inputTypes, int[] groupKeyPositions, boolean[][] groupSetMembership)
    {
        SqlKind kind = call.getAggregation().getKind();
        List<Integer> args = call.getArgList();
        RelDataType outputType = call.getType();
        if (call.isDistinct()) {
            throw new OntulException(ErrorCode.INTERNAL_ERROR, "Internal error (this is a bug in Ontul): DISTINCT aggregate reached the accumulator");
        }
        return switch (kind) {
            case COUNT -> new CountAccumulator(args.isEmpty() ? -1 : args.get(0), args.size() > 1 ? args.subList(1, args.size()) : List.of());
            case SUM, SUM0 -> {
                RelDataType argType = inputTypes.get(args.get(0));
                yield sum(args.get(0), kind == SqlKind.SUM0, argType);
            }
            case AVG -> new AvgAccumulator(args.get(0), -1, inputTypes.get(args.get(0)), outputType);
            case MIN, MAX -> new MinMaxAccumulator(args.get(0), kind == SqlKind.MAX, inputTypes.get(args.get(0)), false);
            case SINGLE_VALUE, ANY_VALUE -> new MinMaxAccumulator(args.get(0), false, inputTypes.get(args.get(0)), kind == SqlKind.SINGLE_VALUE);
            case ARG_MIN, ARG_MAX -> new ArgExtremeAccumulator(args.get(0), args.get(1), kind == SqlKind.ARG_MAX, inputTypes.get(args.get(0)), inputTypes.get(args.get(1)));
            case STRING_AGG, LISTAGG -> {
                for (int argument : args) {
                    if (!SqlTypeName.CHAR_TYPES.contains(inputTypes.get(argument).getSqlTypeName())) {
                        throw new OntulException(ErrorCode.NOT_SUPPORTED, "string_agg/listagg of " + io.ontul.engine.type.ArrowTypes.sqlName(inputTypes.get(argument))
                                + " is not supported: it joins text (cast the values to VARCHAR)");
                    }
                }
                yield new StringAggAccumulator(args.get(0), args.size() > 1 ? args.get(1) : -1, call.collation.getFieldCollations());
            }
            case ARRAY_AGG -> new ArrayAggAccumulator(args.get(0), call.getType(), call.collation.getFieldCollations());
            case GROUPING, GROUPING_ID -> new GroupingAccumulator(groupKeyPositions, groupSetMembership);
            case LITERAL_AGG -> new LiteralAccumulator((RexLiteral) call.rexList.get(0));
            case OTHER_FUNCTION -> switch (call.getAggregation().getName()) {
                case "APPROX_DISTINCT" -> new ApproxDistinctAccumulator(args.get(0));
                case "APPROX_PERCENTILE" -> new ApproxPercentileAccumulator(args.get(0), args.get(1));
                default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "Aggregate function " + call.getAggregation().getName() + " is not supported");
            };
            default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "Aggregate function " + call.getAggregation().getName() + " is not supported");
        };
    }

    /** Whether {@code call} can run as a partial aggregate per pipeline plus a final merge. */
    public static boolean supportsPartial(AggregateCall call)
    {
        return !call.isDistinct() && switch (call.getAggregation().getKind()) {
            case COUNT -> call.getArgList().size() <= 1;
            case SUM, SUM0, MIN, MAX, AVG -> true;
            default -> false;
        };
    }

    /** Partial SUM of {@code argument} (for AVG): DECIMAL(38, s) in 128 bits for integers and decimals, DOUBLE for floating values. */
    public static Accumulator partialSum(int argument, RelDataType argType)
    {
        return isFloating(argType) ? new DoubleSumAccumulator(argument, false) : new DecimalSumAccumulator(argument, false);
    }

    /** SUM in DOUBLE, in 128 bits for DECIMAL, or in a BIGINT that overflows as BIGINT does. */
    private static Accumulator sum(int argument, boolean zeroWhenEmpty, RelDataType argType)
    {
        if (isFloating(argType)) {
            return new DoubleSumAccumulator(argument, zeroWhenEmpty);
        }
        if (argType.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return new DecimalSumAccumulator(argument, zeroWhenEmpty);
        }
        return new LongSumAccumulator(argument, zeroWhenEmpty, argType);
    }

    /** Partial COUNT of non-NULL {@code argument}. */
    public static Accumulator partialCount(int argument)
    {
        return new CountAccumulator(argument, List.of());
    }

    /**
     * The accumulator that merges the partial results of {@code call}: a sum of counts for
     * COUNT, the same function for SUM, MIN and MAX, and sum-and-count for AVG.
     *
     * @param partialColumns the partial result columns of this call (two for AVG: sum, count)
     */
    public static Accumulator createFinal(AggregateCall call, int[] partialColumns, List<RelDataType> partialTypes)
    {
        RelDataType type = partialTypes.get(partialColumns[0]);
        return switch (call.getAggregation().getKind()) {
            case COUNT -> new LongSumAccumulator(partialColumns[0], true, type);
            case SUM, SUM0 -> sum(partialColumns[0], call.getAggregation().getKind() == SqlKind.SUM0, type);
            case MIN, MAX -> new MinMaxAccumulator(partialColumns[0], call.getAggregation().getKind() == SqlKind.MAX, type, false);
            case AVG -> new AvgAccumulator(partialColumns[0], partialColumns[1], type, call.getType());
            default -> throw new OntulException(ErrorCode.INTERNAL_ERROR, "Internal error (this is a bug in Ontul): no final form for " + call);
        };
    }

    static boolean isFloating(RelDataType type)
    {
        return switch (type.getSqlTypeName()) {
            case REAL, FLOAT, DOUBLE -> true;
            default -> false;
        };
    }

    /** Writes sum / count (count > 0) as the AVG output type: DOUBLE, REAL, DECIMAL or an integer. */
    static void writeAverage(FieldVector out, int index, boolean floating, double doubleSum, java.math.BigInteger unscaledSum, int scale, long count, RelDataType outputType)
    {
        if (outputType.getSqlTypeName() == SqlTypeName.DECIMAL) {
            BigDecimal average = new BigDecimal(unscaledSum, scale).divide(BigDecimal.valueOf(count), outputType.getScale(), RoundingMode.HALF_UP);
            ((DecimalVector) out).set(index, average);
            return;
        }
        double average = floating
                ? doubleSum / count
                : new BigDecimal(unscaledSum, scale).divide(BigDecimal.valueOf(count), MathContext.DECIMAL64).doubleValue();
        if (out instanceof Float4Vector v) {
            v.set(index, (float) average);
        }
        else if (out instanceof Float8Vector v) {
            v.set(index, average);
        }
        else {
            writeLong(out, index, Math.round(average));
        }
    }

    static void writeLong(FieldVector out, int index, long value)
    {
        if (out instanceof BigIntVector v) {
            v.set(index, value);
        }
        else if (out instanceof DecimalVector v) {
            v.set(index, value);
        }
        else if (out instanceof IntVector v) {
            v.set(index, (int) value);
        }
        else if (out instanceof Float8Vector v) {
            v.set(index, (double) value);
        }
        else {
            throw new IllegalStateException("cannot write a long to " + out.getMinorType());
        }
    }

    private static final class CountAccumulator
            implements Accumulator
    {
        private final int argument;
        private final List<Integer> moreArguments;
        private long[] counts = new long[0];

        CountAccumulator(int argument, List<Integer> moreArguments)
        {
            this.argument = argument;
            this.moreArguments = moreArguments;
        }

        @Override
        public int bytesPerGroup()
        {
            return 8;
        }

        @Override
        public void ensureCapacity(int groupCount)
        {
            if (counts.length < groupCount) {
                counts = Arrays.copyOf(counts, Math.max(groupCount, counts.length * 2));
            }
        }

        @Override
        public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
        {
            FieldVector vector = argument < 0 ? null : columns[argument];
            if (vector == null && selected == null) {
                for (int row = 0; row < rowCount; row++) {
                    counts[groupIds[row]]++;
                }
                return;
            }
            rows:
            for (int row = 0; row < rowCount; row++) {
                if (!ColumnValues.counts(vector, row, selected)) {
                    continue;
                }
                for (int more : moreArguments) {
                    if (columns[more].isNull(row)) {
                        continue rows;
                    }
                }
                counts[groupIds[row]]++;
            }
        }

        @Override
        public void write(FieldVector out, int from, int count, GroupInfo groups)
        {
            for (int i = 0; i < count; i++) {
                writeLong(out, i, counts[from + i]);
            }
        }

        @Override
        public List<Field> stateFields()
        {
            return List.of(StateVectors.longField("count"));
        }

        @Override
        public void writeState(FieldVector[] out, int first, int[] groups, int count)
        {
            for (int i = 0; i < count; i++) {
                StateVectors.setLong(out[first], i, counts[groups[i]]);
            }
        }

        @Override
        public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
        {
            long[] values = StateVectors.longs(columns[first], rowCount);
            for (int row = 0; row < rowCount; row++) {
                counts[groupIds[row]] += values[row];
            }
        }

        @Override
        public void reset()
        {
            counts = new long[0];
        }
    }

    private static final class LongSumAccumulator
            implements Accumulator
    {
        private final int argument;
        private final boolean zeroWhenEmpty;
        private final String typeName;
        private long[] sums = new long[0];
        private boolean[] seen = new boolean[0];

        LongSumAccumulator(int argument, boolean zeroWhenEmpty, RelDataType argType)
        {
            this.argument = argument;
            this.zeroWhenEmpty = zeroWhenEmpty;
            this.typeName = argType.getSqlTypeName() == SqlTypeName.DECIMAL ? "DECIMAL" : "BIGINT";
        }

        @Override
        public int bytesPerGroup()
        {
            return 9;
        }

        @Override
        public void ensureCapacity(int groupCount)
        {
            if (sums.length < groupCount) {
                int length = Math.max(groupCount, sums.length * 2);
                sums = Arrays.copyOf(sums, length);
                seen = Arrays.copyOf(seen, length);
            }
        }

        @Override
        public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
        {
            FieldVector vector = columns[argument];
            long[] values = ColumnValues.longs(vector, rowCount);
            boolean noNulls = vector.getNullCount() == 0 && selected == null;
            for (int row = 0; row < rowCount; row++) {
                if (noNulls || ColumnValues.counts(vector, row, selected)) {
                    int group = groupIds[row];
                    long a = sums[group];
                    long b = values[row];
                    long r = a + b;
                    if (((a ^ r) & (b ^ r)) < 0) {
                        throw Functions.overflow(typeName, "SUM");
                    }
                    sums[group] = r;
                    seen[group] = true;
                }
            }
        }

        @Override
        public void write(FieldVector out, int from, int count, GroupInfo groups)
        {
            for (int i = 0; i < count; i++) {
                if (seen[from + i] || zeroWhenEmpty) {
                    writeLong(out, i, sums[from + i]);
                }
                else {
                    out.setNull(i);
                }
            }
        }

        @Override
        public List<Field> stateFields()
        {
            return List.of(StateVectors.longField("sum"));
        }

        @Override
        public void writeState(FieldVector[] out, int first, int[] groups, int count)
        {
            for (int i = 0; i < count; i++) {
                if (seen[groups[i]]) {
                    StateVectors.setLong(out[first], i, sums[groups[i]]);
                }
                else {
                    out[first].setNull(i);
                }
            }
        }

        @Override
        public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
        {
            FieldVector vector = columns[first];
            long[] values = StateVectors.longs(vector, rowCount);
            for (int row = 0; row < rowCount; row++) {
                if (!vector.isNull(row)) {
                    int group = groupIds[row];
                    sums[group] = add(sums[group], values[row]);
                    seen[group] = true;
                }
            }
        }

        private long add(long a, long b)
        {
            long r = a + b;
            if (((a ^ r) & (b ^ r)) < 0) {
                throw Functions.overflow(typeName, "SUM");
            }
            return r;
        }

        @Override
        public void reset()
        {
            sums = new long[0];
            seen = new boolean[0];
        }
    }

    private static final class DoubleSumAccumulator
            implements Accumulator
    {
        private final int argument;
        private final boolean zeroWhenEmpty;
        private double[] sums = new double[0];
        private boolean[] seen = new boolean[0];

        DoubleSumAccumulator(int argument, boolean zeroWhenEmpty)
        {
            this.argument = argument;
            this.zeroWhenEmpty = zeroWhenEmpty;
        }

        @Override
        public int bytesPerGroup()
        {
            return 9;
        }

        @Override
        public void ensureCapacity(int groupCount)
        {
            if (sums.length < groupCount) {
                int length = Math.max(groupCount, sums.length * 2);
                sums = Arrays.copyOf(sums, length);
                seen = Arrays.copyOf(seen, length);
            }
        }

        @Override
        public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
        {
            FieldVector vector = columns[argument];
            double[] values = ColumnValues.doubles(vector, rowCount);
            for (int row = 0; row < rowCount; row++) {
                if (ColumnValues.counts(vector, row, selected)) {
                    sums[groupIds[row]] += values[row];
                    seen[groupIds[row]] = true;
                }
            }
        }

        @Override
        public void write(FieldVector out, int from, int count, GroupInfo groups)
        {
            for (int i = 0; i < count; i++) {
                if (seen[from + i] || zeroWhenEmpty) {
                    if (out instanceof Float4Vector v) {
                        v.set(i, (float) sums[from + i]);
                    }
                    else {
                        ((Float8Vector) out).set(i, sums[from + i]);
                    }
                }
                else {
                    out.setNull(i);
                }
            }
        }

        @Override
        public List<Field> stateFields()
        {
            return List.of(StateVectors.doubleField("sum"));
        }

        @Override
        public void writeState(FieldVector[] out, int first, int[] groups, int count)
        {
            for (int i = 0; i < count; i++) {
                if (seen[groups[i]]) {
                    StateVectors.setDouble(out[first], i, sums[groups[i]]);
                }
                else {
                    out[first].setNull(i);
                }
            }
        }

        @Override
        public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
        {
            FieldVector vector = columns[first];
            double[] values = StateVectors.doubles(vector, rowCount);
            for (int row = 0; row < rowCount; row++) {
                if (!vector.isNull(row)) {
                    sums[groupIds[row]] += values[row];
                    seen[groupIds[row]] = true;
                }
            }
        }

        @Override
        public void reset()
        {
            sums = new double[0];
            seen = new boolean[0];
        }
    }

    /**
     * AVG as a sum and a count per group. Over raw input ({@code countColumn < 0}) each counted
     * row adds 1; in the final step of a parallel aggregation it merges partial (sum, count)
     * columns.
     */
    private static final class AvgAccumulator
            implements Accumulator
    {
        private final int sumColumn;
        private final int countColumn;
        private final boolean floating;
        private final int scale;
        private final RelDataType outputType;
        private final Int128Sums longSums = new Int128Sums();
        private double[] doubleSums = new double[0];
        private long[] counts = new long[0];

        AvgAccumulator(int sumColumn, int countColumn, RelDataType sumType, RelDataType outputType)
        {
            this.sumColumn = sumColumn;
            this.countColumn = countColumn;
            this.floating = isFloating(sumType);
            this.scale = sumType.getSqlTypeName() == SqlTypeName.DECIMAL ? sumType.getScale() : 0;
            this.outputType = outputType;
        }

        @Override
        public int bytesPerGroup()
        {
            return 16;
        }

        @Override
        public void ensureCapacity(int groupCount)
        {
            if (counts.length < groupCount) {
                int length = Math.max(groupCount, counts.length * 2);
                counts = Arrays.copyOf(counts, length);
                if (floating) {
                    doubleSums = Arrays.copyOf(doubleSums, length);
                }
                else {
                    longSums.ensureCapacity(length);
                }
            }
        }

        @Override
        public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
        {
            FieldVector sums = columns[sumColumn];
            long[] partialCounts = countColumn < 0 ? null : ColumnValues.longs(columns[countColumn], rowCount);
            if (floating) {
                double[] values = ColumnValues.doubles(sums, rowCount);
                for (int row = 0; row < rowCount; row++) {
                    if (ColumnValues.counts(sums, row, selected)) {
                        doubleSums[groupIds[row]] += values[row];
                        counts[groupIds[row]] += partialCounts == null ? 1 : partialCounts[row];
                    }
                }
                return;
            }
            if (sums instanceof DecimalVector decimal) {
                var data = decimal.getDataBuffer();
                for (int row = 0; row < rowCount; row++) {
                    if (ColumnValues.counts(sums, row, selected)) {
                        int group = groupIds[row];
                        long offset = (long) row * DecimalVector.TYPE_WIDTH;
                        longSums.add(group, data.getLong(offset + 8), data.getLong(offset));
                        counts[group] += partialCounts == null ? 1 : partialCounts[row];
                    }
                }
                return;
            }
            long[] values = ColumnValues.longs(sums, rowCount);
            for (int row = 0; row < rowCount; row++) {
                if (ColumnValues.counts(sums, row, selected)) {
                    int group = groupIds[row];
                    longSums.add(group, values[row]);
                    counts[group] += partialCounts == null ? 1 : partialCounts[row];
                }
            }
        }

        @Override
        public void write(FieldVector out, int from, int count, GroupInfo groups)
        {
            for (int i = 0; i < count; i++) {
                int group = from + i;
                if (counts[group] == 0) {
                    out.setNull(i);
                    continue;
                }
                writeAverage(out, i, floating, floating ? doubleSums[group] : 0, floating ? null : longSums.get(group), scale, counts[group], outputType);
            }
        }

        @Override
        public List<Field> stateFields()
        {
            return floating
                    ? List.of(StateVectors.doubleField("sum"), StateVectors.longField("count"))
                    : List.of(StateVectors.longField("sum"), StateVectors.longField("count"), StateVectors.longField("sum_high"));
        }

        @Override
        public void writeState(FieldVector[] out, int first, int[] groups, int count)
        {
            for (int i = 0; i < count; i++) {
                int group = groups[i];
                if (floating) {
                    StateVectors.setDouble(out[first], i, doubleSums[group]);
                }
                else {
                    StateVectors.setLong(out[first], i, longSums.low(group));
                    StateVectors.setLong(out[first + 2], i, longSums.high(group));
                }
                StateVectors.setLong(out[first + 1], i, counts[group]);
            }
        }

        @Override
        public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
        {
            long[] partialCounts = StateVectors.longs(columns[first + 1], rowCount);
            if (floating) {
                double[] values = StateVectors.doubles(columns[first], rowCount);
                for (int row = 0; row < rowCount; row++) {
                    doubleSums[groupIds[row]] += values[row];
                    counts[groupIds[row]] += partialCounts[row];
                }
                return;
            }
            long[] values = StateVectors.longs(columns[first], rowCount);
            long[] highs = StateVectors.longs(columns[first + 2], rowCount);
            for (int row = 0; row < rowCount; row++) {
                int group = groupIds[row];
                longSums.addSum(group, highs[row], values[row]);
                counts[group] += partialCounts[row];
            }
        }

        @Override
        public void reset()
        {
            longSums.reset();
            doubleSums = new double[0];
            counts = new long[0];
        }
    }

    /**
     * MIN, MAX, and (with {@code single}) the one value of a scalar subquery. ARRAY values are
     * held as {@link ArrayValues} objects and ordered as arrays compare.
     */
    private static final class MinMaxAccumulator
            implements Accumulator
    {
        private final int argument;
        private final boolean max;
        private final boolean single;
        private final boolean text;
        private final boolean floating;
        private final RelDataType arrayType;
        /** DECIMAL of more than 18 digits: 128-bit values, low words in longs, high words in highs. */
        private final boolean wide;
        private Object[] arrays = new Object[0];
        private long[] longs = new long[0];
        private long[] highs = new long[0];
        private double[] doubles = new double[0];
        private byte[][] texts = new byte[0][];
        private boolean[] seen = new boolean[0];
        private byte[] rowsSeen = new byte[0];

        MinMaxAccumulator(int argument, boolean max, RelDataType argType, boolean single)
        {
            this.argument = argument;
            this.max = max;
            this.single = single;
            this.text = io.ontul.engine.expression.Vectors.heldAsBytes(argType);
            this.floating = isFloating(argType);
            this.arrayType = argType.getSqlTypeName() == SqlTypeName.ARRAY ? argType : null;
            this.wide = argType.getSqlTypeName() == SqlTypeName.DECIMAL && argType.getPrecision() > 18;
        }

        @Override
        public int bytesPerGroup()
        {
            return text ? 48 : 10;
        }

        @Override
        public void ensureCapacity(int groupCount)
        {
            if (seen.length < groupCount) {
                int length = Math.max(groupCount, seen.length * 2);
                seen = Arrays.copyOf(seen, length);
                if (single) {
                    rowsSeen = Arrays.copyOf(rowsSeen, length);
                }
                if (arrayType != null) {
                    arrays = Arrays.copyOf(arrays, length);
                }
                else if (text) {
                    texts = Arrays.copyOf(texts, length);
                }
                else if (floating) {
                    doubles = Arrays.copyOf(doubles, length);
                }
                else {
                    longs = Arrays.copyOf(longs, length);
                    if (wide) {
                        highs = Arrays.copyOf(highs, length);
                    }
                }
            }
        }

        @Override
        public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected)
        {
            FieldVector vector = columns[argument];
            if (single) {
                for (int row = 0; row < rowCount; row++) {
                    if (selected == null || selected[row]) {
                        int group = groupIds[row];
                        if (rowsSeen[group] != 0) {
                            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Scalar subquery returned more than one row");
                        }
                        rowsSeen[group] = 1;
                    }
                }
            }
            if (arrayType != null) {
                for (int row = 0; row < rowCount; row++) {
                    if (ColumnValues.counts(vector, row, selected)) {
                        int group = groupIds[row];
                        Object value = ArrayValues.element(vector, row);
                        if (!seen[group] || better(ArrayValues.compare(value, arrays[group]))) {
                            arrays[group] = value;
                            seen[group] = true;
                        }
                    }
                }
            }
            else if (text) {
                BaseVariableWidthVector strings = (BaseVariableWidthVector) vector;
                for (int row = 0; row < rowCount; row++) {
                    if (ColumnValues.counts(vector, row, selected)) {
                        int group = groupIds[row];
                        byte[] value = strings.get(row);
                        if (!seen[group] || better(compareBytes(value, texts[group]))) {
                            texts[group] = value;
                            seen[group] = true;
                        }
                    }
                }
            }
            else if (floating) {
                double[] values = ColumnValues.doubles(vector, rowCount);
                for (int row = 0; row < rowCount; row++) {
                    if (ColumnValues.counts(vector, row, selected)) {
                        int group = groupIds[row];
                        if (!seen[group] || better(Double.compare(values[row], doubles[group]))) {
                            doubles[group] = values[row];
                            seen[group] = true;
                        }
                    }
                }
            }
            else if (wide) {
                var data = vector.getDataBuffer();
                for (int row = 0; row < rowCount; row++) {
                    if (ColumnValues.counts(vector, row, selected)) {
                        long offset = (long) row * DecimalVector.TYPE_WIDTH;
                        addWide(groupIds[row], data.getLong(offset + 8), data.getLong(offset));
                    }
                }
            }
            else {
                long[] values = ColumnValues.longs(vector, rowCount);
                for (int row = 0; row < rowCount; row++) {
                    if (ColumnValues.counts(vector, row, selected)) {
                        int group = groupIds[row];
                        if (!seen[group] || better(Long.compare(values[row], longs[group]))) {
                            longs[group] = values[row];
                            seen[group] = true;
                        }
                    }
                }
            }
        }

        /** Takes a 128-bit value (its high and low words) for the group when it is the better one. */
        private void addWide(int group, long high, long low)
        {
            int comparison = high != highs[group] ? Long.compare(high, highs[group]) : Long.compareUnsigned(low, longs[group]);
            if (!seen[group] || better(comparison)) {
                highs[group] = high;
                longs[group] = low;
                seen[group] = true;
            }
        }

        private void writeWide(DecimalVector out, int index, int group)
        {
            if (highs[group] == longs[group] >> 63) {
                io.ontul.engine.expression.Vectors.writeDecimal(out, index, longs[group]);
            }
            else {
                java.math.BigInteger value = java.math.BigInteger.valueOf(highs[group]).shiftLeft(64).add(new java.math.BigInteger(Long.toUnsignedString(longs[group])));
                out.set(index, new BigDecimal(value, out.getScale()));
            }
        }

        private boolean better(int comparison)
        {
            return single ? false : max ? comparison > 0 : comparison < 0;
        }

        private static int compareBytes(byte[] a, byte[] b)
        {
            return Arrays.compareUnsigned(a, b);
        }

        @Override
        public void write(FieldVector out, int from, int count, GroupInfo groups)
        {
            for (int i = 0; i < count; i++) {
                int group = from + i;
                if (!seen[group]) {
                    out.setNull(i);
                }
                else if (arrayType != null) {
                    ArrayValues.setElement(out, i, arrays[group]);
                }
                else if (text) {
                    ((BaseVariableWidthVector) out).setSafe(i, texts[group]);
                }
                else if (floating) {
                    if (out instanceof Float4Vector v) {
                        v.set(i, (float) doubles[group]);
                    }
                    else {
                        ((Float8Vector) out).set(i, doubles[group]);
                    }
                }
                else if (wide) {
                    writeWide((DecimalVector) out, i, group);
                }
                else {
                    LongWriter.write(out, i, longs[group]);
                }
            }
        }

        @Override
        public List<Field> stateFields()
        {
            Field value = arrayType != null ? StateVectors.nullable(ArrowTypes.toField("value", arrayType))
                    : text ? StateVectors.textField("value") : floating ? StateVectors.doubleField("value") : StateVectors.longField("value");
            if (wide) {
                return single ? List.of(value, StateVectors.longField("rows"), StateVectors.longField("value_high")) : List.of(value, StateVectors.longField("value_high"));
            }
            return single ? List.of(value, StateVectors.longField("rows")) : List.of(value);
        }

        @Override
        public void writeState(FieldVector[] out, int first, int[] groups, int count)
        {
            FieldVector values = out[first];
            for (int i = 0; i < count; i++) {
                int group = groups[i];
                if (!seen[group]) {
                    values.setNull(i);
                }
                else if (arrayType != null) {
                    ArrayValues.setElement(values, i, arrays[group]);
                }
                else if (text) {
                    ((BaseVariableWidthVector) values).setSafe(i, texts[group]);
                }
                else if (floating) {
                    StateVectors.setDouble(values, i, doubles[group]);
                }
                else {
                    StateVectors.setLong(values, i, longs[group]);
                    if (wide) {
                        StateVectors.setLong(out[first + (single ? 2 : 1)], i, highs[group]);
                    }
                }
                if (single) {
                    StateVectors.setLong(out[first + 1], i, rowsSeen[group]);
                }
            }
        }

        @Override
        public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount)
        {
            FieldVector vector = columns[first];
            if (single) {
                long[] rows = StateVectors.longs(columns[first + 1], rowCount);
                for (int row = 0; row < rowCount; row++) {
                    int group = groupIds[row];
                    if (rows[row] != 0 && rowsSeen[group] != 0) {
                        throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Scalar subquery returned more than one row");
                    }
                    rowsSeen[group] |= (byte) rows[row];
                }
            }
            long[] longValues = text || floating || arrayType != null ? null : StateVectors.longs(vector, rowCount);
            long[] highValues = wide ? StateVectors.longs(columns[first + (single ? 2 : 1)], rowCount) : null;
            double[] doubleValues = floating ? StateVectors.doubles(vector, rowCount) : null;
            for (int row = 0; row < rowCount; row++) {
                if (vector.isNull(row)) {
                    continue;
                }
                int group = groupIds[row];
                if (arrayType != null) {
                    Object value = ArrayValues.element(vector, row);
                    if (!seen[group] || better(ArrayValues.compare(value, arrays[group]))) {
                        arrays[group] = value;
                    }
                }
                else if (text) {
                    byte[] value = ((BaseVariableWidthVector) vector).get(row);
                    if (!seen[group] || better(compareBytes(value, texts[group]))) {
                        texts[group] = value;
                    }
                }
                else if (floating) {
                    if (!seen[group] || better(Double.compare(doubleValues[row], doubles[group]))) {
                        doubles[group] = doubleValues[row];
                    }
                }
                else if (wide) {
                    // a state row of an older release has no high word: its value fits the low one
                    FieldVector highColumn = columns[first + (single ? 2 : 1)];
                    addWide(group, highColumn.isNull(row) ? longValues[row] >> 63 : highValues[row], longValues[row]);
                }
                else if (!seen[group] || better(Long.compare(longValues[row], longs[group]))) {
                    longs[group] = longValues[row];
                }
                seen[group] = true;
            }
        }

        @Override
        public void reset()
        {
            longs = new long[0];
            highs = new long[0];
            doubles = new double[0];
            texts = new byte[0][];
            arrays = new Object[0];
            seen = new boolean[0];
            rowsSeen = new byte[0];
        }
    }

    private static final class GroupingAccumulator
            implements Accumulator
    {
        private final int[] keyPositions;
        private final boolean[][] membership;

        GroupingAccumulator(int[] keyPositions, boolean[][] membership)
        {
            this.keyPositions = keyPositions;
            this.membership = membership;
        }

        @Override
        public int bytesPerGroup()
        {
            return 0;
        }

        @Override
        public void ensureCapacity(int groupCount) {}

        @Override
        public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected) {}

        @Override
        public void write(FieldVector out, int from, int count, GroupInfo groups)
        {
            for (int i = 0; i < count; i++) {
                boolean[] inSet = membership[groups.groupSet(from + i)];
                long value = 0;
                for (int position : keyPositions) {
                    value = (value << 1) | (inSet[position] ? 0 : 1);
                }
                writeLong(out, i, value);
            }
        }

        @Override
        public List<Field> stateFields()
        {
            return List.of();
        }

        @Override
        public void writeState(FieldVector[] out, int first, int[] groups, int count) {}

        @Override
        public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount) {}

        @Override
        public void reset() {}
    }

    private static final class LiteralAccumulator
            implements Accumulator
    {
        private final RexLiteral literal;

        LiteralAccumulator(RexLiteral literal)
        {
            this.literal = literal;
        }

        @Override
        public int bytesPerGroup()
        {
            return 0;
        }

        @Override
        public void ensureCapacity(int groupCount) {}

        @Override
        public void add(FieldVector[] columns, int[] groupIds, int rowCount, boolean[] selected) {}

        @Override
        public void write(FieldVector out, int from, int count, GroupInfo groups)
        {
            for (int i = 0; i < count; i++) {
                if (literal.isNull()) {
                    out.setNull(i);
                }
                else if (out instanceof org.apache.arrow.vector.BitVector v) {
                    v.setSafe(i, literal.getValueAs(Boolean.class) ? 1 : 0);
                }
                else if (out instanceof BaseVariableWidthVector v) {
                    v.setSafe(i, io.ontul.engine.expression.Vectors.literalBytes(literal));
                }
                else {
                    LongWriter.write(out, i, literal.getValueAs(Long.class));
                }
            }
        }

        @Override
        public List<Field> stateFields()
        {
            return List.of();
        }

        @Override
        public void writeState(FieldVector[] out, int first, int[] groups, int count) {}

        @Override
        public void mergeState(FieldVector[] columns, int first, int[] groupIds, int rowCount) {}

        @Override
        public void reset() {}
    }
}
