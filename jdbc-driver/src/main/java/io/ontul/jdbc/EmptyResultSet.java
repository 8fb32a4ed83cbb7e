package io.ontul.jdbc;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * A result set without rows over known columns: what a metadata call answers when nothing
 * matches. Reading a value fails as on any result set that is not on a row.
 */
final class EmptyResultSet
        implements InvocationHandler
{
    private final List<MetadataColumns.Column> columns;
    private boolean closed;

    private EmptyResultSet(List<MetadataColumns.Column> columns)
    {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
    }

    static ResultSet create(List<MetadataColumns.Column> columns)
    {
        return (ResultSet) Proxy.newProxyInstance(EmptyResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class}, new EmptyResultSet(columns));
    }

    @Override
    public synchronized Object invoke(Object proxy, Method method, Object[] arguments)
            throws SQLException
    {
        String name = method.getName();
        if (method.getDeclaringClass() == Object.class) {
            return switch (name) {
                case "equals" -> proxy == arguments[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "Ontul empty result set " + columns;
            };
        }
        switch (name) {
            case "close":
                closed = true;
                return null;
            case "isClosed":
                return closed;
            case "unwrap":
                if (((Class<?>) arguments[0]).isInstance(proxy)) {
                    return proxy;
                }
                throw new SQLException("Not a wrapper of " + ((Class<?>) arguments[0]).getName(), "HY000");
            case "isWrapperFor":
                return ((Class<?>) arguments[0]).isInstance(proxy);
            default:
                break;
        }
        if (closed) {
            throw new SQLException("Result set is closed", "24000");
        }
        return switch (name) {
            case "next", "isBeforeFirst", "isAfterLast", "isFirst", "isLast", "wasNull", "rowUpdated", "rowInserted", "rowDeleted" -> false;
            case "getMetaData" -> new ColumnListMetaData(columns);
            case "findColumn" -> findColumn((String) arguments[0]);
            case "getRow", "getFetchSize" -> 0;
            case "getType" -> ResultSet.TYPE_FORWARD_ONLY;
            case "getConcurrency" -> ResultSet.CONCUR_READ_ONLY;
            case "getHoldability" -> ResultSet.HOLD_CURSORS_OVER_COMMIT;
            case "getFetchDirection" -> ResultSet.FETCH_FORWARD;
            case "getStatement", "getWarnings", "setFetchSize", "setFetchDirection", "clearWarnings" -> null;
            default -> throw new SQLException("The result set has no rows: " + name + " cannot read a value", "24000");
        };
    }

    private int findColumn(String label)
            throws SQLException
    {
        for (int index = 0; index < columns.size(); index++) {
            if (columns.get(index).name().equalsIgnoreCase(label)) {
                return index + 1;
            }
        }
        throw new SQLException("Column '" + label + "' not found", "42S22");
    }
}
