package io.ontul.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * What every forward-only, read-only result set of the driver answers the same way: updates
 * and scrolling are refused, getters by column label find the column and call the getter by
 * index, types Ontul never returns (REF, ROWID, SQLXML, URL, LOBs) are not supported.
 */
abstract class ReadOnlyResultSet
        implements ResultSet
{
    /** Fails if the result set is closed. */
    protected abstract void checkOpen()
            throws SQLException;

    protected static SQLException readOnly()
    {
        return new SQLFeatureNotSupportedException("Ontul's result sets are read-only: change rows with INSERT, UPDATE, DELETE or MERGE");
    }

    protected static SQLException forwardOnly()
    {
        return new SQLException("Ontul's result sets are forward-only (TYPE_FORWARD_ONLY): read them with next()", "24000");
    }

    @Override
    public <T> T unwrap(Class<T> type)
            throws SQLException
    {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("Not a wrapper for " + type.getName(), "HY000");
    }

    @Override
    public boolean isWrapperFor(Class<?> type)
    {
        return type.isInstance(this);
    }

    @Override
    public <T> T getObject(String label, Class<T> type)
            throws SQLException
    {
        return getObject(findColumn(label), type);
    }

    @Override
    public boolean absolute(int value)
            throws SQLException
    {
        throw forwardOnly();
    }

    @Override
    public boolean first()
            throws SQLException
    {
        throw forwardOnly();
    }

    @Override
    public boolean getBoolean(String label)
            throws SQLException
    {
        return getBoolean(findColumn(label));
    }

    @Override
    public boolean last()
            throws SQLException
    {
        throw forwardOnly();
    }

    @Override
    public boolean previous()
            throws SQLException
    {
        throw forwardOnly();
    }

    @Override
    public boolean relative(int value)
            throws SQLException
    {
        throw forwardOnly();
    }

    @Override
    public boolean rowDeleted()
            throws SQLException
    {
        checkOpen();
        return false;
    }

    @Override
    public boolean rowInserted()
            throws SQLException
    {
        checkOpen();
        return false;
    }

    @Override
    public boolean rowUpdated()
            throws SQLException
    {
        checkOpen();
        return false;
    }

    @Override
    public byte getByte(String label)
            throws SQLException
    {
        return getByte(findColumn(label));
    }

    @Override
    public byte[] getBytes(String label)
            throws SQLException
    {
        return getBytes(findColumn(label));
    }

    @Override
    public double getDouble(String label)
            throws SQLException
    {
        return getDouble(findColumn(label));
    }

    @Override
    public float getFloat(String label)
            throws SQLException
    {
        return getFloat(findColumn(label));
    }

    @Override
    public int getConcurrency()
            throws SQLException
    {
        return CONCUR_READ_ONLY;
    }

    @Override
    public int getFetchDirection()
            throws SQLException
    {
        return FETCH_FORWARD;
    }

    @Override
    public int getHoldability()
            throws SQLException
    {
        return CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public int getInt(String label)
            throws SQLException
    {
        return getInt(findColumn(label));
    }

    @Override
    public int getType()
            throws SQLException
    {
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public InputStream getAsciiStream(String label)
            throws SQLException
    {
        return getAsciiStream(findColumn(label));
    }

    @Override
    public InputStream getBinaryStream(String label)
            throws SQLException
    {
        return getBinaryStream(findColumn(label));
    }

    @Override
    public InputStream getUnicodeStream(int column)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getUnicodeStream is not supported by Ontul's result sets");
    }

    @Override
    public InputStream getUnicodeStream(String label)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getUnicodeStream is not supported by Ontul's result sets");
    }

    @Override
    public Reader getCharacterStream(String label)
            throws SQLException
    {
        return getCharacterStream(findColumn(label));
    }

    @Override
    public Reader getNCharacterStream(int column)
            throws SQLException
    {
        return getCharacterStream(column);
    }

    @Override
    public Reader getNCharacterStream(String label)
            throws SQLException
    {
        return getNCharacterStream(findColumn(label));
    }

    @Override
    public Object getObject(String label)
            throws SQLException
    {
        return getObject(findColumn(label));
    }

    @Override
    public Object getObject(String label, Map<String, Class<?>> map)
            throws SQLException
    {
        return getObject(findColumn(label), map);
    }

    @Override
    public String getCursorName()
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getCursorName is not supported by Ontul's result sets");
    }

    @Override
    public String getNString(int column)
            throws SQLException
    {
        return getString(column);
    }

    @Override
    public String getNString(String label)
            throws SQLException
    {
        return getNString(findColumn(label));
    }

    @Override
    public String getString(String label)
            throws SQLException
    {
        return getString(findColumn(label));
    }

    @Override
    public BigDecimal getBigDecimal(String label)
            throws SQLException
    {
        return getBigDecimal(findColumn(label));
    }

    @Override
    public BigDecimal getBigDecimal(String label, int scale)
            throws SQLException
    {
        return getBigDecimal(findColumn(label), scale);
    }

    @Override
    public URL getURL(int column)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getURL is not supported by Ontul's result sets");
    }

    @Override
    public URL getURL(String label)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getURL is not supported by Ontul's result sets");
    }

    @Override
    public Array getArray(int column)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getArray is not supported by Ontul's result sets");
    }

    @Override
    public Array getArray(String label)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getArray is not supported by Ontul's result sets");
    }

    @Override
    public Blob getBlob(int column)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getBlob is not supported by Ontul's result sets");
    }

    @Override
    public Blob getBlob(String label)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getBlob is not supported by Ontul's result sets");
    }

    @Override
    public Clob getClob(int column)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getClob is not supported by Ontul's result sets");
    }

    @Override
    public Clob getClob(String label)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getClob is not supported by Ontul's result sets");
    }

    @Override
    public Date getDate(String label)
            throws SQLException
    {
        return getDate(findColumn(label));
    }

    @Override
    public Date getDate(String label, Calendar calendar)
            throws SQLException
    {
        return getDate(findColumn(label), calendar);
    }

    @Override
    public NClob getNClob(int column)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getNClob is not supported by Ontul's result sets");
    }

    @Override
    public NClob getNClob(String label)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getNClob is not supported by Ontul's result sets");
    }

    @Override
    public Ref getRef(int column)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getRef is not supported by Ontul's result sets");
    }

    @Override
    public Ref getRef(String label)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getRef is not supported by Ontul's result sets");
    }

    @Override
    public RowId getRowId(int column)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getRowId is not supported by Ontul's result sets");
    }

    @Override
    public RowId getRowId(String label)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getRowId is not supported by Ontul's result sets");
    }

    @Override
    public SQLXML getSQLXML(int column)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getSQLXML is not supported by Ontul's result sets");
    }

    @Override
    public SQLXML getSQLXML(String label)
            throws SQLException
    {
        throw new SQLFeatureNotSupportedException("getSQLXML is not supported by Ontul's result sets");
    }

    @Override
    public Time getTime(String label)
            throws SQLException
    {
        return getTime(findColumn(label));
    }

    @Override
    public Time getTime(String label, Calendar calendar)
            throws SQLException
    {
        return getTime(findColumn(label), calendar);
    }

    @Override
    public Timestamp getTimestamp(String label)
            throws SQLException
    {
        return getTimestamp(findColumn(label));
    }

    @Override
    public Timestamp getTimestamp(String label, Calendar calendar)
            throws SQLException
    {
        return getTimestamp(findColumn(label), calendar);
    }

    @Override
    public long getLong(String label)
            throws SQLException
    {
        return getLong(findColumn(label));
    }

    @Override
    public short getShort(String label)
            throws SQLException
    {
        return getShort(findColumn(label));
    }

    @Override
    public void afterLast()
            throws SQLException
    {
        throw forwardOnly();
    }

    @Override
    public void beforeFirst()
            throws SQLException
    {
        throw forwardOnly();
    }

    @Override
    public void cancelRowUpdates()
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void deleteRow()
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void insertRow()
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void moveToCurrentRow()
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void moveToInsertRow()
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void refreshRow()
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void setFetchDirection(int value)
            throws SQLException
    {
        if (value != FETCH_FORWARD) {
            throw forwardOnly();
        }
    }

    @Override
    public void updateArray(int column, Array value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateArray(String label, Array value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int column, InputStream value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int column, InputStream value, int length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int column, InputStream value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String label, InputStream value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String label, InputStream value, int length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String label, InputStream value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBigDecimal(int column, BigDecimal value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBigDecimal(String label, BigDecimal value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int column, InputStream value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int column, InputStream value, int length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int column, InputStream value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String label, InputStream value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String label, InputStream value, int length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String label, InputStream value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBlob(int column, InputStream value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBlob(int column, InputStream value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBlob(int column, Blob value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBlob(String label, InputStream value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBlob(String label, InputStream value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBlob(String label, Blob value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBoolean(int column, boolean value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBoolean(String label, boolean value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateByte(int column, byte value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateByte(String label, byte value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBytes(int column, byte[] value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateBytes(String label, byte[] value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int column, Reader value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int column, Reader value, int length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int column, Reader value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String label, Reader value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String label, Reader value, int length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String label, Reader value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateClob(int column, Reader value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateClob(int column, Reader value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateClob(int column, Clob value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateClob(String label, Reader value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateClob(String label, Reader value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateClob(String label, Clob value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateDate(int column, Date value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateDate(String label, Date value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateDouble(int column, double value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateDouble(String label, double value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateFloat(int column, float value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateFloat(String label, float value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateInt(int column, int value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateInt(String label, int value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateLong(int column, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateLong(String label, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(int column, Reader value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(int column, Reader value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(String label, Reader value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(String label, Reader value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNClob(int column, Reader value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNClob(int column, Reader value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNClob(int column, NClob value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNClob(String label, Reader value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNClob(String label, Reader value, long length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNClob(String label, NClob value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNString(int column, String value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNString(String label, String value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNull(int column)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateNull(String label)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateObject(int column, Object value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateObject(int column, Object value, int length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateObject(String label, Object value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateObject(String label, Object value, int length)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateRef(int column, Ref value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateRef(String label, Ref value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateRow()
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateRowId(int column, RowId value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateRowId(String label, RowId value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateSQLXML(int column, SQLXML value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateSQLXML(String label, SQLXML value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateShort(int column, short value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateShort(String label, short value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateString(int column, String value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateString(String label, String value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateTime(int column, Time value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateTime(String label, Time value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateTimestamp(int column, Timestamp value)
            throws SQLException
    {
        throw readOnly();
    }

    @Override
    public void updateTimestamp(String label, Timestamp value)
            throws SQLException
    {
        throw readOnly();
    }
}
