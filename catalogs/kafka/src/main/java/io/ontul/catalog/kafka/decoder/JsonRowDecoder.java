package io.ontul.catalog.kafka.decoder;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Decodes record values that are JSON objects: each field fills the column of the same name
 * (exactly, else without regard to case); fields without a column are ignored; a column without
 * a field, or with JSON null, is NULL. A value that is not a JSON object, a record without a value
 * (a tombstone), or a field that does not convert to its column's type makes the record malformed;
 * so does a missing value for a NOT NULL column. With a key column, that column holds the
 * record's key as UTF-8 text instead of a field of the value.
 */
public final class JsonRowDecoder
        implements RowDecoder
{
    private static final JsonFactory FACTORY = new JsonFactory();

    private final List<Field> columns;
    private final JsonColumnDecoder[] decoders;
    private final boolean[] nullable;
    private final Map<String, Integer> exactNames = new HashMap<>();
    private final Map<String, Integer> lowerCaseNames = new HashMap<>();
    private final int keyColumn;
    private final boolean[] seen;
    private final RawRowDecoder.Utf8Writer keyWriter = new RawRowDecoder.Utf8Writer();

    /**
     * @param columns the table's declared columns
     * @param keyColumn the column that holds the record key, if any
     */
    public JsonRowDecoder(List<Field> columns, Optional<String> keyColumn)
    {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(keyColumn, "keyColumn is null");
        this.decoders = new JsonColumnDecoder[this.columns.size()];
        this.nullable = new boolean[this.columns.size()];
        this.seen = new boolean[this.columns.size()];
        int key = -1;
        for (int i = 0; i < this.columns.size(); i++) {
            Field column = this.columns.get(i);
            decoders[i] = JsonColumnDecoder.forField(column, FACTORY);
            nullable[i] = column.isNullable();
            exactNames.putIfAbsent(column.getName(), i);
            lowerCaseNames.putIfAbsent(column.getName().toLowerCase(Locale.ROOT), i);
            if (keyColumn.isPresent() && column.getName().equals(keyColumn.get())) {
                key = i;
            }
        }
        if (keyColumn.isPresent() && key < 0) {
            throw new IllegalArgumentException("Key column is not a column: " + keyColumn.get());
        }
        this.keyColumn = key;
    }

    @Override
    public List<Field> columns()
    {
        return columns;
    }

    @Override
    public void decode(byte[] key, byte[] value, FieldVector[] vectors, int row)
            throws MalformedRecordException
    {
        if (value == null) {
            throw new MalformedRecordException("the record has no value (a tombstone)");
        }
        Arrays.fill(seen, false);
        try (JsonParser parser = FACTORY.createParser(value)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedRecordException("the value is not a JSON object");
            }
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                int column = column(parser.currentName());
                JsonToken valueToken = parser.nextToken();
                if (column < 0 || column == keyColumn) {
                    parser.skipChildren();
                    continue;
                }
                seen[column] = true;
                if (valueToken == JsonToken.VALUE_NULL) {
                    setNull(vectors, column, row);
                }
                else {
                    decoders[column].decode(parser, valueToken, vectors[column], row);
                }
            }
            if (token != JsonToken.END_OBJECT) {
                throw new MalformedRecordException("the value is not a complete JSON object");
            }
            if (parser.nextToken() != null) {
                throw new MalformedRecordException("the value has text after its JSON object");
            }
        }
        catch (JsonProcessingException e) {
            throw new MalformedRecordException("invalid JSON: " + e.getOriginalMessage());
        }
        catch (IOException e) {
            throw new MalformedRecordException("unreadable JSON: " + e.getMessage());
        }
        for (int column = 0; column < seen.length; column++) {
            if (column == keyColumn) {
                if (key == null) {
                    setNull(vectors, column, row);
                }
                else if (vectors[column] != null) {
                    keyWriter.write(vectors[column], row, key);
                }
            }
            else if (!seen[column]) {
                setNull(vectors, column, row);
            }
        }
    }

    private void setNull(FieldVector[] vectors, int column, int row)
            throws MalformedRecordException
    {
        if (!nullable[column]) {
            throw new MalformedRecordException("NOT NULL column '" + columns.get(column).getName() + "' has no value");
        }
        if (vectors[column] != null) {
            vectors[column].setNull(row);
        }
    }

    private int column(String name)
    {
        Integer column = exactNames.get(name);
        if (column == null) {
            column = lowerCaseNames.get(name.toLowerCase(Locale.ROOT));
        }
        return column == null ? -1 : column;
    }
}
