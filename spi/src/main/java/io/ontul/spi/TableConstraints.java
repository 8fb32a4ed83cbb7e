package io.ontul.spi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A table's keys and column defaults ({@code PRIMARY KEY}, {@code UNIQUE}, {@code DEFAULT} in
 * CREATE TABLE), carried in the metadata of the Arrow schema that {@link ConnectorMetadata#createTable}
 * receives: the primary key and the unique keys as JSON arrays of column names on the schema, a
 * default as SQL text on its field. A connector lists what it keeps ({@link ConnectorMetadata#supportedConstraints});
 * the engine refuses the others, naming the catalog.
 */
public final class TableConstraints
{
    public enum Kind
    {
        PRIMARY_KEY("PRIMARY KEY"), UNIQUE("UNIQUE"), DEFAULT("DEFAULT");

        private final String sql;

        Kind(String sql)
        {
            this.sql = sql;
        }

        /** As SQL writes it. */
        public String sql()
        {
            return sql;
        }
    }

    public static final String PRIMARY_KEY = "ontul.primary-key";
    public static final String UNIQUE_KEYS = "ontul.unique-keys";
    public static final String DEFAULT = "ontul.default";

    private static final ObjectMapper JSON = new ObjectMapper();

    private TableConstraints() {}

    public static Optional<List<String>> primaryKey(Schema schema)
    {
        String json = schema.getCustomMetadata() == null ? null : schema.getCustomMetadata().get(PRIMARY_KEY);
        return json == null ? Optional.empty() : Optional.of(read(json, new TypeReference<List<String>>() {}));
    }

    /** The UNIQUE keys, the primary key not among them. */
    public static List<List<String>> uniqueKeys(Schema schema)
    {
        String json = schema.getCustomMetadata() == null ? null : schema.getCustomMetadata().get(UNIQUE_KEYS);
        return json == null ? List.of() : read(json, new TypeReference<List<List<String>>>() {});
    }

    /** The primary key (first) and the unique keys: every set of columns no two rows may share. */
    public static List<List<String>> keys(Schema schema)
    {
        List<List<String>> keys = new ArrayList<>();
        primaryKey(schema).ifPresent(keys::add);
        keys.addAll(uniqueKeys(schema));
        return keys;
    }

    /** The column's DEFAULT, as SQL text. */
    public static Optional<String> defaultValue(Field field)
    {
        return Optional.ofNullable(field.getMetadata().get(DEFAULT));
    }

    /** {@code schema} with these keys in its metadata. */
    public static Schema withKeys(Schema schema, Optional<List<String>> primaryKey, List<List<String>> uniqueKeys)
    {
        Map<String, String> metadata = new HashMap<>(schema.getCustomMetadata() == null ? Map.of() : schema.getCustomMetadata());
        metadata.remove(PRIMARY_KEY);
        metadata.remove(UNIQUE_KEYS);
        primaryKey.ifPresent(key -> metadata.put(PRIMARY_KEY, write(key)));
        if (!uniqueKeys.isEmpty()) {
            metadata.put(UNIQUE_KEYS, write(uniqueKeys));
        }
        return new Schema(schema.getFields(), metadata);
    }

    /** {@code field} with this DEFAULT in its metadata. */
    public static Field withDefault(Field field, String sql)
    {
        Map<String, String> metadata = new HashMap<>(field.getMetadata());
        metadata.put(DEFAULT, sql);
        return new Field(field.getName(), new FieldType(field.isNullable(), field.getType(), field.getDictionary(), metadata), field.getChildren());
    }

    private static String write(Object value)
    {
        try {
            return JSON.writeValueAsString(value);
        }
        catch (JsonProcessingException e) {
            throw OntulException.internal("cannot write table constraints", e);
        }
    }

    private static <T> T read(String json, TypeReference<T> type)
    {
        try {
            return JSON.readValue(json, type);
        }
        catch (JsonProcessingException e) {
            throw OntulException.internal("cannot read table constraints: " + json, e);
        }
    }
}
