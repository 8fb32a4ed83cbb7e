package io.ontul.sdk;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.util.JsonStringArrayList;
import org.apache.arrow.vector.util.Text;

/**
 * The whole result of a statement: its columns (name and Arrow type) and its rows, values as Java
 * objects (Long, BigDecimal, String, LocalDate, LocalDateTime, Boolean, lists, ...). A statement
 * that changes data has one column {@code rows} with its update count.
 */
public record SqlResult(List<Column> columns, List<List<Object>> rows)
{
    public SqlResult
    {
        columns = List.copyOf(columns);
        rows = rows.stream().map(row -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(row))).toList();
    }

    public record Column(String name, String type)
    {
        public Column
        {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }

    /** The rows as maps of column name to value, in column order. */
    public List<Map<String, Object>> asMaps()
    {
        return rows.stream().map(row -> {
            Map<String, Object> values = new LinkedHashMap<>();
            for (int column = 0; column < columns.size(); column++) {
                values.put(columns.get(column).name(), row.get(column));
            }
            return values;
        }).toList();
    }

    /** The update count of a statement that changed data. */
    public long updateCount()
    {
        if (columns.size() != 1 || !columns.get(0).name().equals("rows") || rows.size() != 1) {
            throw new IllegalStateException("Not the result of a statement that changes data: " + columns);
        }
        return ((Number) rows.get(0).get(0)).longValue();
    }

    static Object javaValue(Object value)
    {
        if (value instanceof Text text) {
            return text.toString();
        }
        if (value instanceof JsonStringArrayList<?> list) {
            return list.stream().map(SqlResult::javaValue).toList();
        }
        return value;
    }
}
