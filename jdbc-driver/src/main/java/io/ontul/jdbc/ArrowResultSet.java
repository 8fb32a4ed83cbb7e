package io.ontul.jdbc;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Date;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTimeoutException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.FieldVector;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.jdbc.ColumnReader.Kind;

/**
 * A query result read straight from the Arrow batches of its Flight stream: {@code next()}
 * moves through a batch, the getters read its vectors with a {@link ColumnReader} per column,
 * and the next batch is received while this one is read ({@link PrefetchedBatches}). Arrow's
 * own driver reads each value through Avatica's accessors and boxes it; this reads a BIGINT
 * column with one memory read per {@code getLong}.
 * <p>
 * Values read as Arrow's driver (with this driver's corrections) reads them: DATE, TIME and
 * TIMESTAMP are the written wall-clock values in the JVM's default zone or the given Calendar's
 * ({@link TemporalValues}). Forward-only and read-only ({@link ReadOnlyResultSet}). A query
 * timeout of the statement stops the stream and fails the next {@code next()} with SQLState HYT00.
 */
final class ArrowResultSet
        extends ReadOnlyResultSet
{
    private static final ScheduledExecutorService TIMEOUTS = timeouts();

    private static final int DATE_CACHE_SIZE = 4096;

    private static ScheduledExecutorService timeouts()
    {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "ontul-jdbc-query-timeout");
            thread.setDaemon(true);
            return thread;
        });
        // a result that ends in time forgets its timeout at once
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    private final PrefetchedBatches batches;
    private final ResultSetMetaData metadata;
    private final Statement statement;
    private final long maxRows;
    private final int[] sqlTypes;
    private final ScheduledFuture<?> timeout;
    private final int timeoutSeconds;
    private volatile boolean timedOut;

    private ColumnReader[] readers;
    private VectorSchemaRoot batch;
    private int row = -1;
    private long rowNumber;
    private boolean afterLast;
    private boolean wasNull;
    // closed may be set by another thread (a statement's cancel or close); the thread that reads
    // the rows frees the batch it holds, when it next calls in or closes the result itself
    private volatile boolean closed;
    private volatile Thread reader;
    private boolean released;
    private int fetchSize;
    private Map<String, Integer> columnsByLabel;
    // java.sql.Date milliseconds by epoch day, for this result's reads: Date.valueOf works out the
    // default zone's offset for every value, which costs more than the rest of a row's getters
    private long[] cachedDays;
    private long[] cachedDateMillis;

    /**
     * @param metadata the result's columns, as the prepared statement reports them
     * @param statement what {@code getStatement} returns
     * @param maxRows the statement's row limit; 0 for none
     * @param timeoutSeconds the statement's query timeout; 0 for none
     */
    ArrowResultSet(PrefetchedBatches batches, ResultSetMetaData metadata, Statement statement, long maxRows, int timeoutSeconds)
            throws SQLException
    {
        this.batches = requireNonNull(batches, "batches is null");
        this.metadata = requireNonNull(metadata, "metadata is null");
        this.statement = statement;
        this.maxRows = maxRows;
        this.sqlTypes = new int[metadata.getColumnCount()];
        for (int column = 0; column < sqlTypes.length; column++) {
            sqlTypes[column] = metadata.getColumnType(column + 1);
        }
        this.timeoutSeconds = timeoutSeconds;
        this.timeout = timeoutSeconds > 0
                ? TIMEOUTS.schedule(() -> {
                    // the timeout covers the query, not the application's reading of the rows
                    if (!batches.received()) {
                        timedOut = true;
                        batches.cancel();
                    }
                }, timeoutSeconds, TimeUnit.SECONDS)
                : null;
    }

    @Override
    public boolean next()
            throws SQLException
    {
        if (reader != Thread.currentThread()) {
            reader = Thread.currentThread();
        }
        checkOpen();
        if (afterLast) {
            return false;
        }
        if (maxRows > 0 && rowNumber >= maxRows) {
            finish();
            return false;
        }
        row++;
        while (batch == null || row >= batch.getRowCount()) {
            if (!nextBatch()) {
                finish();
                return false;
            }
            row = 0;
        }
        rowNumber++;
        return true;
    }

    /** Moves to the next batch; false after the last one. */
    private boolean nextBatch()
            throws SQLException
    {
        if (batch != null) {
            batch.close();
            batch = null;
        }
        VectorSchemaRoot next;
        try {
            next = batches.next();
        }
        catch (SQLException e) {
            afterLast = true;
            throw timedOut ? timeoutError(e) : e;
        }
        if (next == null) {
            if (timedOut) {
                throw timeoutError(null);
            }
            return false;
        }
        batch = next;
        List<FieldVector> vectors = next.getFieldVectors();
        if (readers == null) {
            if (vectors.size() != sqlTypes.length) {
                afterLast = true;
                batch.close();
                batch = null;
                throw new SQLException("The result has " + vectors.size() + " columns, its statement reported " + sqlTypes.length, SqlErrors.INTERNAL);
            }
            readers = new ColumnReader[vectors.size()];
            for (int column = 0; column < readers.length; column++) {
                readers[column] = ColumnReader.of(vectors.get(column));
                if (readers[column] == null) {
                    afterLast = true;
                    batch.close();
                    batch = null;
                    readers = null;
                    throw new SQLException("The driver cannot read column " + (column + 1) + " (" + vectors.get(column).getField() + ") directly: connect with arrowResults=true", SqlErrors.INTERNAL);
                }
            }
        }
        else {
            for (int column = 0; column < readers.length; column++) {
                readers[column].bind(vectors.get(column));
            }
        }
        return true;
    }

    private SQLException timeoutError(SQLException cause)
    {
        return new SQLTimeoutException("The query ran longer than the statement's query timeout of " + timeoutSeconds + " s", "HYT00", cause);
    }

    /** After the last row: frees the batches (and stops the stream when a row limit ended it early). */
    private void finish()
    {
        afterLast = true;
        row = -1;
        if (batch != null) {
            batch.close();
            batch = null;
        }
        batches.close();
        if (timeout != null) {
            timeout.cancel(false);
        }
    }

    /**
     * Closes the result. On the thread that reads it (or before any read) this frees its batch
     * at once; from another thread (a statement's cancel or close) it stops the stream, and the
     * reading thread, which may be inside a getter, frees the batch when it next calls in.
     */
    @Override
    public void close()
    {
        closed = true;
        Thread owner = reader;
        if (owner == null || owner == Thread.currentThread()) {
            release();
        }
        else {
            batches.cancel();
        }
    }

    private void release()
    {
        if (!released) {
            released = true;
            finish();
        }
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    @Override
    protected void checkOpen()
            throws SQLException
    {
        if (closed) {
            if (reader == Thread.currentThread()) {
                release();
            }
            throw new SQLException("The result set is closed", "24000");
        }
    }

    /** The reader of a column of the current row; sets wasNull. */
    private ColumnReader column(int column)
            throws SQLException
    {
        checkOpen();
        if (batch == null || row < 0) {
            throw new SQLException(afterLast ? "The cursor is after the last row" : "The cursor is before the first row: call next()", "24000");
        }
        if (column < 1 || column > readers.length) {
            throw new SQLException("Column index " + column + " is out of range: the result has " + readers.length + " columns", "07009");
        }
        ColumnReader reader = readers[column - 1];
        wasNull = reader.isNull(row);
        return reader;
    }

    private SQLException conversion(int column, ColumnReader reader, String target)
    {
        return new SQLDataException("Cannot read column " + column + " (" + reader.kind.name().toLowerCase(Locale.ROOT) + ") as " + target, "22018");
    }

    private SQLException conversion(int column, ColumnReader reader, String target, RuntimeException cause)
    {
        SQLException error = conversion(column, reader, target);
        error.initCause(cause);
        return error;
    }

    @Override
    public boolean wasNull()
            throws SQLException
    {
        checkOpen();
        return wasNull;
    }

    @Override
    public String getString(int column)
            throws SQLException
    {
        ColumnReader reader = column(column);
        return wasNull ? null : reader.getString(row);
    }

    @Override
    public long getLong(int column)
            throws SQLException
    {
        ColumnReader reader = numeric(column);
        if (wasNull) {
            return 0;
        }
        return switch (reader.kind) {
            case FLOATING -> (long) reader.getDouble(row);
            case TEXT -> {
                try {
                    yield reader.getLong(row);
                }
                catch (NumberFormatException e) {
                    throw conversion(column, reader, "a number", e);
                }
            }
            default -> reader.getLong(row);
        };
    }

    @Override
    public int getInt(int column)
            throws SQLException
    {
        ColumnReader reader = numeric(column);
        if (wasNull) {
            return 0;
        }
        return switch (reader.kind) {
            // narrowed as Java narrows: a DOUBLE saturates to int (then wraps to short and byte)
            case FLOATING -> (int) reader.getDouble(row);
            case TEXT -> {
                try {
                    yield (int) reader.getLong(row);
                }
                catch (NumberFormatException e) {
                    throw conversion(column, reader, "a number", e);
                }
            }
            default -> (int) reader.getLong(row);
        };
    }

    @Override
    public short getShort(int column)
            throws SQLException
    {
        return (short) getInt(column);
    }

    @Override
    public byte getByte(int column)
            throws SQLException
    {
        return (byte) getInt(column);
    }

    /** The reader of a column that getters of numbers read; fails for a column of another kind, NULL or not. */
    private ColumnReader numeric(int column)
            throws SQLException
    {
        ColumnReader reader = column(column);
        return switch (reader.kind) {
            case INTEGRAL, BOOLEAN, FLOATING, DECIMAL, TEXT -> reader;
            default -> throw conversion(column, reader, "a number");
        };
    }

    @Override
    public double getDouble(int column)
            throws SQLException
    {
        ColumnReader reader = numeric(column);
        if (wasNull) {
            return 0;
        }
        if (reader.kind == Kind.TEXT) {
            try {
                return reader.getDouble(row);
            }
            catch (NumberFormatException e) {
                throw conversion(column, reader, "a number", e);
            }
        }
        return reader.getDouble(row);
    }

    @Override
    public float getFloat(int column)
            throws SQLException
    {
        return (float) getDouble(column);
    }

    @Override
    public BigDecimal getBigDecimal(int column)
            throws SQLException
    {
        ColumnReader reader = numeric(column);
        if (wasNull) {
            return null;
        }
        try {
            return reader.getBigDecimal(row);
        }
        catch (NumberFormatException e) {
            throw conversion(column, reader, "a number", e);
        }
    }

    @Override
    @SuppressWarnings("deprecation")
    public BigDecimal getBigDecimal(int column, int scale)
            throws SQLException
    {
        BigDecimal value = getBigDecimal(column);
        return value == null ? null : value.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public boolean getBoolean(int column)
            throws SQLException
    {
        ColumnReader reader = numeric(column);
        if (wasNull) {
            return false;
        }
        return switch (reader.kind) {
            case FLOATING -> reader.getDouble(row) != 0;
            case DECIMAL -> reader.getBigDecimal(row).signum() != 0;
            case TEXT -> switch (reader.getString(row).trim().toLowerCase(Locale.ROOT)) {
                case "true", "1" -> true;
                case "false", "0" -> false;
                default -> throw conversion(column, reader, "a boolean");
            };
            default -> reader.getLong(row) != 0;
        };
    }

    @Override
    public byte[] getBytes(int column)
            throws SQLException
    {
        ColumnReader reader = column(column);
        if (reader.kind != Kind.BINARY && reader.kind != Kind.TEXT) {
            throw conversion(column, reader, "bytes");
        }
        return wasNull ? null : reader.getBytes(row);
    }

    /** The DATE, TIME or TIMESTAMP value of the column, or null. */
    private LocalDateTime dateTime(int column, ColumnReader reader, String target)
            throws SQLException
    {
        if (reader.kind != Kind.DATE && reader.kind != Kind.TIME && reader.kind != Kind.TIMESTAMP) {
            throw conversion(column, reader, target);
        }
        return wasNull ? null : reader.getDateTime(row);
    }

    @Override
    public Date getDate(int column)
            throws SQLException
    {
        ColumnReader reader = column(column);
        if (reader.kind == Kind.DATE && !wasNull) {
            return new Date(dateMillis(reader.getLong(row)));
        }
        LocalDateTime value = dateTime(column, reader, "a date");
        return value == null ? null : TemporalValues.date(value, null);
    }

    /** The milliseconds of Date.valueOf(the day), from the cache when this result read the day before. */
    private long dateMillis(long epochDay)
    {
        if (cachedDays == null) {
            cachedDays = new long[DATE_CACHE_SIZE];
            cachedDateMillis = new long[DATE_CACHE_SIZE];
            java.util.Arrays.fill(cachedDays, Long.MIN_VALUE);
        }
        int slot = (int) (epochDay & (DATE_CACHE_SIZE - 1));
        if (cachedDays[slot] != epochDay) {
            cachedDateMillis[slot] = Date.valueOf(LocalDate.ofEpochDay(epochDay)).getTime();
            cachedDays[slot] = epochDay;
        }
        return cachedDateMillis[slot];
    }

    @Override
    public Date getDate(int column, Calendar calendar)
            throws SQLException
    {
        LocalDateTime value = dateTime(column, column(column), "a date");
        return value == null ? null : TemporalValues.date(value, calendar);
    }

    @Override
    public Time getTime(int column)
            throws SQLException
    {
        return getTime(column, null);
    }

    @Override
    public Time getTime(int column, Calendar calendar)
            throws SQLException
    {
        LocalDateTime value = dateTime(column, column(column), "a time");
        return value == null ? null : TemporalValues.time(value, calendar);
    }

    @Override
    public Timestamp getTimestamp(int column)
            throws SQLException
    {
        return getTimestamp(column, null);
    }

    @Override
    public Timestamp getTimestamp(int column, Calendar calendar)
            throws SQLException
    {
        LocalDateTime value = dateTime(column, column(column), "a timestamp");
        return value == null ? null : TemporalValues.timestamp(value, calendar);
    }

    @Override
    public Object getObject(int column)
            throws SQLException
    {
        ColumnReader reader = column(column);
        if (wasNull) {
            return null;
        }
        return reader.kind == Kind.DATE ? new Date(dateMillis(reader.getLong(row))) : reader.getObject(row);
    }

    @Override
    public Object getObject(int column, Map<String, Class<?>> map)
            throws SQLException
    {
        if (map == null || map.isEmpty()) {
            return getObject(column);
        }
        throw new SQLFeatureNotSupportedException("Ontul has no user-defined types to map");
    }

    @Override
    public <T> T getObject(int column, Class<T> type)
            throws SQLException
    {
        if (type == null) {
            throw new SQLException("The type to read column " + column + " as is null", "HY009");
        }
        ColumnReader reader = column(column);
        if (reader.kind == Kind.DATE || reader.kind == Kind.TIME || reader.kind == Kind.TIMESTAMP) {
            if (wasNull) {
                return null;
            }
            if (reader.kind == Kind.DATE && type == Date.class) {
                // as getDate reads it
                return type.cast(new Date(dateMillis(reader.getLong(row))));
            }
            Object converted = TemporalValues.convert(reader.getDateTime(row), sqlTypes[column - 1], type);
            if (converted != null) {
                return type.cast(converted);
            }
        }
        // the getters check the column's kind first, NULL or not
        Object value;
        if (type == String.class) {
            value = getString(column);
        }
        else if (type == Long.class) {
            value = getLong(column);
        }
        else if (type == Integer.class) {
            value = getInt(column);
        }
        else if (type == Short.class) {
            value = getShort(column);
        }
        else if (type == Byte.class) {
            value = getByte(column);
        }
        else if (type == Double.class) {
            value = getDouble(column);
        }
        else if (type == Float.class) {
            value = getFloat(column);
        }
        else if (type == BigDecimal.class) {
            value = getBigDecimal(column);
        }
        else if (type == Boolean.class) {
            value = getBoolean(column);
        }
        else if (type == byte[].class) {
            value = getBytes(column);
        }
        else {
            value = getObject(column);
        }
        if (wasNull) {
            return null;
        }
        if (!type.isInstance(value)) {
            throw conversion(column, reader, type.getName());
        }
        return type.cast(value);
    }

    @Override
    public Reader getCharacterStream(int column)
            throws SQLException
    {
        String value = getString(column);
        return value == null ? null : new StringReader(value);
    }

    @Override
    public InputStream getAsciiStream(int column)
            throws SQLException
    {
        String value = getString(column);
        return value == null ? null : new ByteArrayInputStream(value.getBytes(US_ASCII));
    }

    @Override
    public InputStream getBinaryStream(int column)
            throws SQLException
    {
        byte[] value = getBytes(column);
        return value == null ? null : new ByteArrayInputStream(value);
    }

    @Override
    public ResultSetMetaData getMetaData()
            throws SQLException
    {
        checkOpen();
        return metadata;
    }

    @Override
    public int findColumn(String label)
            throws SQLException
    {
        checkOpen();
        if (columnsByLabel == null) {
            Map<String, Integer> byLabel = new HashMap<>();
            for (int column = sqlTypes.length; column >= 1; column--) {
                // the first column of a label wins
                byLabel.put(metadata.getColumnLabel(column).toLowerCase(Locale.ROOT), column);
            }
            columnsByLabel = byLabel;
        }
        Integer column = label == null ? null : columnsByLabel.get(label.toLowerCase(Locale.ROOT));
        if (column == null) {
            throw new SQLException("The result has no column '" + label + "'", "42S22");
        }
        return column;
    }

    @Override
    public Statement getStatement()
            throws SQLException
    {
        checkOpen();
        return statement;
    }

    @Override
    public SQLWarning getWarnings()
            throws SQLException
    {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings()
            throws SQLException
    {
        checkOpen();
    }

    @Override
    public int getRow()
            throws SQLException
    {
        checkOpen();
        return afterLast ? 0 : (int) Math.min(rowNumber, Integer.MAX_VALUE);
    }

    @Override
    public boolean isBeforeFirst()
            throws SQLException
    {
        checkOpen();
        if (rowNumber > 0 || afterLast) {
            return false;
        }
        if (batch == null) {
            // false for a result without rows: look at the first batch (next() then starts in it)
            if (reader != Thread.currentThread()) {
                reader = Thread.currentThread();
            }
            if (!nextBatch()) {
                finish();
                return false;
            }
            row = -1;
        }
        return true;
    }

    @Override
    public boolean isAfterLast()
            throws SQLException
    {
        checkOpen();
        return afterLast && rowNumber > 0;
    }

    @Override
    public boolean isFirst()
            throws SQLException
    {
        checkOpen();
        return rowNumber == 1 && !afterLast;
    }

    @Override
    public boolean isLast()
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("isLast() would have to read ahead in a forward-only stream: call next() and see whether it returns false");
    }

    @Override
    public int getFetchSize()
            throws SQLException
    {
        checkOpen();
        return fetchSize;
    }

    @Override
    public void setFetchSize(int rows)
            throws SQLException
    {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("The fetch size must not be negative: " + rows, "HY024");
        }
        // the server sends batches of its own size; two wait ahead of the reader
        fetchSize = rows;
    }
}
