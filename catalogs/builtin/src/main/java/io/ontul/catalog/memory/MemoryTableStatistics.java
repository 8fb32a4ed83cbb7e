package io.ontul.catalog.memory;

import java.util.HashMap;
import java.util.Map;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
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
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;

import io.ontul.spi.ColumnStatistics;

/**
 * The column statistics of a memory table, kept up to date as rows are committed (the statistics
 * DuckDB keeps per column on insert): per column the NULL count, the smallest and largest value
 * of numeric, date and time columns, and a HyperLogLog sketch of the distinct values (Apache
 * DataSketches, about 1.6% error). Sketches of two commits merge, so a commit adds the cost of
 * its own rows only. Values are reduced to a 64-bit hash first (texts hashed eight bytes at a
 * time) and the sketch hashes that again, so each value costs one sketch update and no copy.
 * <p>
 * Not thread safe: a sink summarises its rows in one instance per appending thread, then the
 * table merges them at commit under its lock.
 */
final class MemoryTableStatistics
{
    /** log2 of the HLL sketch's registers: 4096 one-byte registers per column, error about 1.6%. */
    private static final int LG_K = 12;

    private final Schema schema;
    private final ColumnSummary[] columns;
    private long rows;

    MemoryTableStatistics(Schema schema)
    {
        this.schema = schema;
        this.columns = new ColumnSummary[schema.getFields().size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = new ColumnSummary();
        }
    }

    long rows()
    {
        return rows;
    }

    void add(VectorSchemaRoot batch)
    {
        int count = batch.getRowCount();
        rows += count;
        for (int column = 0; column < columns.length; column++) {
            columns[column].add(batch.getVector(column), count);
        }
    }

    /** Adds the rows {@code other} summarised; {@code other} is not changed. */
    void merge(MemoryTableStatistics other)
    {
        rows += other.rows;
        for (int column = 0; column < columns.length; column++) {
            columns[column].merge(other.columns[column]);
        }
    }

    /** The statistics by column name; columns of types not summarised (lists, structs) have none. */
    Map<String, ColumnStatistics> statistics()
    {
        Map<String, ColumnStatistics> statistics = new HashMap<>();
        for (int column = 0; column < columns.length; column++) {
            ColumnSummary summary = columns[column];
            if (!summary.summarised) {
                continue;
            }
            Field field = schema.getFields().get(column);
            double nonNull = rows - summary.nulls;
            // the sketch errs both ways: never more distinct values than non-NULL rows, never none where there are some
            double distinct = nonNull == 0 ? 0 : Math.max(1, Math.min(nonNull, Math.round(summary.distinct().getEstimate())));
            double nullFraction = rows == 0 ? 0 : summary.nulls / (double) rows;
            boolean ranged = summary.ranged && nonNull > 0;
            statistics.put(field.getName(), new ColumnStatistics(distinct, nullFraction, ranged ? summary.min : Double.NaN, ranged ? summary.max : Double.NaN));
        }
        return statistics;
    }

    private static final class ColumnSummary
    {
        private HllSketch sketch;
        private Union union;
        private long nulls;
        private double min = Double.POSITIVE_INFINITY;
        private double max = Double.NEGATIVE_INFINITY;
        /** Whether the column's type is summarised at all, and whether it has a range. */
        private boolean summarised;
        private boolean ranged;

        private HllSketch sketch()
        {
            if (sketch == null) {
                sketch = new HllSketch(LG_K, TgtHllType.HLL_8);
            }
            return sketch;
        }

        HllSketch distinct()
        {
            if (union == null) {
                return sketch();
            }
            if (sketch != null) {
                union.update(sketch);
                sketch = null;
            }
            return union.getResult(TgtHllType.HLL_8);
        }

        void merge(ColumnSummary other)
        {
            summarised |= other.summarised;
            ranged |= other.ranged;
            nulls += other.nulls;
            min = Math.min(min, other.min);
            max = Math.max(max, other.max);
            if (other.sketch == null && other.union == null) {
                return;
            }
            if (union == null) {
                union = new Union(LG_K);
            }
            if (other.sketch != null) {
                union.update(other.sketch);
            }
            if (other.union != null) {
                union.update(other.union.getResult(TgtHllType.HLL_8));
            }
        }

        void add(FieldVector vector, int count)
        {
            nulls += vector.getNullCount();
            boolean noNulls = vector.getNullCount() == 0;
            if (vector instanceof BaseVariableWidthVector text) {
                summarised = true;
                HllSketch hll = sketch();
                ArrowBuf offsets = text.getOffsetBuffer();
                ArrowBuf data = text.getDataBuffer();
                for (int row = 0; row < count; row++) {
                    if (noNulls || !vector.isNull(row)) {
                        int start = offsets.getInt((long) row * 4);
                        int end = offsets.getInt((long) (row + 1) * 4);
                        hll.update(hash(data, start, end));
                    }
                }
                return;
            }
            if (!(vector instanceof BaseFixedWidthVector fixed)) {
                return;
            }
            summarised = true;
            ArrowBuf values = fixed.getDataBuffer();
            HllSketch hll = sketch();
            double low = min;
            double high = max;
            if (vector instanceof BigIntVector || vector instanceof TimeStampMilliVector || vector instanceof TimeStampMicroVector) {
                // TIMESTAMP's range in milliseconds, whatever its unit
                long unit = vector instanceof TimeStampMicroVector ? 1000 : 1;
                for (int row = 0; row < count; row++) {
                    if (noNulls || !vector.isNull(row)) {
                        long value = values.getLong((long) row * 8);
                        hll.update(value);
                        low = Math.min(low, Math.floorDiv(value, unit));
                        high = Math.max(high, Math.floorDiv(value, unit));
                    }
                }
            }
            else if (vector instanceof IntVector || vector instanceof DateDayVector || vector instanceof TimeMilliVector) {
                for (int row = 0; row < count; row++) {
                    if (noNulls || !vector.isNull(row)) {
                        int value = values.getInt((long) row * 4);
                        hll.update(value);
                        low = Math.min(low, value);
                        high = Math.max(high, value);
                    }
                }
            }
            else if (vector instanceof DecimalVector decimal) {
                double unit = Math.pow(10, -decimal.getScale());
                for (int row = 0; row < count; row++) {
                    if (noNulls || !vector.isNull(row)) {
                        long lowBits = values.getLong((long) row * 16);
                        long highBits = values.getLong((long) row * 16 + 8);
                        hll.update(lowBits ^ highBits * 0x9E3779B97F4A7C15L);
                        double value = highBits == (lowBits >> 63) ? lowBits * unit : decimal.getObject(row).doubleValue();
                        low = Math.min(low, value);
                        high = Math.max(high, value);
                    }
                }
            }
            else if (vector instanceof Float8Vector || vector instanceof Float4Vector || vector instanceof SmallIntVector
                    || vector instanceof TinyIntVector || vector instanceof BitVector) {
                // read from the buffer, not boxed per row
                java.util.function.IntToDoubleFunction read = vector instanceof Float8Vector ? row -> values.getDouble((long) row * 8)
                        : vector instanceof Float4Vector ? row -> values.getFloat((long) row * 4)
                        : vector instanceof SmallIntVector ? row -> values.getShort((long) row * 2)
                        : vector instanceof TinyIntVector ? row -> values.getByte(row)
                        : ((BitVector) vector)::get;
                for (int row = 0; row < count; row++) {
                    if (noNulls || !vector.isNull(row)) {
                        double value = read.applyAsDouble(row);
                        // -0.0 and 0.0 are one value
                        hll.update(Double.doubleToLongBits(value == 0 ? 0.0 : value));
                        low = Math.min(low, value);
                        high = Math.max(high, value);
                    }
                }
            }
            else {
                // a fixed-width type without a range (an interval, say): distinct values by their bytes
                int width = fixed.getTypeWidth();
                for (int row = 0; row < count; row++) {
                    if (noNulls || !fixed.isNull(row)) {
                        hll.update(hash(values, row * width, row * width + width));
                    }
                }
                return;
            }
            ranged = true;
            min = low;
            max = high;
        }

        /** A 64-bit hash of bytes {@code [start, end)}: eight bytes at a time, then the rest. */
        private static long hash(ArrowBuf data, int start, int end)
        {
            long hash = 0x2545F4914F6CDD1DL ^ (end - start);
            int at = start;
            for (; at + 8 <= end; at += 8) {
                hash = Long.rotateLeft(hash ^ data.getLong(at) * 0x9E3779B97F4A7C15L, 29) * 0xBF58476D1CE4E5B9L;
            }
            long tail = 0;
            for (int shift = 0; at < end; at++, shift += 8) {
                tail |= (data.getByte(at) & 0xFFL) << shift;
            }
            return Long.rotateLeft(hash ^ tail * 0x9E3779B97F4A7C15L, 29) * 0xBF58476D1CE4E5B9L;
        }
    }
}
