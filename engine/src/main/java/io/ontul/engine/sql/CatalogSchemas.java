package io.ontul.engine.sql;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.schema.lookup.Named;

import io.ontul.engine.catalog.CatalogManager;
import io.ontul.spi.Connector;

/**
 * Builds the Calcite namespace {@code catalog.schema.table} over the engine's catalogs. Built
 * per statement, so it reflects the tables that exist now; connector metadata is asked lazily,
 * only for the names a statement uses. Unquoted names arrive lower-cased; lookups that Calcite
 * makes case-insensitively try the lower-cased name.
 */
public final class CatalogSchemas
{
    private CatalogSchemas() {}

    public static SchemaPlus rootSchema(CatalogManager catalogs)
    {
        SchemaPlus root = CalciteSchema.createRootSchema(false, false).plus();
        for (String name : catalogs.names()) {
            root.add(name, new CatalogSchema(catalogs.get(name).orElseThrow()));
        }
        return root;
    }

    private static final class CatalogSchema
            extends AbstractSchema
    {
        private final Connector connector;

        CatalogSchema(Connector connector)
        {
            this.connector = connector;
        }

        @Override
        public Lookup<? extends Schema> subSchemas()
        {
            return new LazyLookup<>(
                    name -> connector.metadata().listSchemas().contains(name) || !connector.metadata().listTables(name).isEmpty()
                            ? Optional.of(new ConnectorSchema(name, connector))
                            : Optional.<Schema>empty(),
                    () -> new LinkedHashSet<>(connector.metadata().listSchemas()));
        }
    }

    private static final class ConnectorSchema
            extends AbstractSchema
    {
        private final String schema;
        private final Connector connector;

        ConnectorSchema(String schema, Connector connector)
        {
            this.schema = schema;
            this.connector = connector;
        }

        @Override
        public Lookup<Table> tables()
        {
            return new LazyLookup<>(
                    name -> connector.metadata().getTable(schema, name).map(handle -> new ConnectorTable(connector, handle)),
                    () -> new LinkedHashSet<>(connector.metadata().listTables(schema)));
        }
    }

    private static final class LazyLookup<T>
            implements Lookup<T>
    {
        private final Function<String, Optional<? extends T>> finder;
        private final Supplier<Set<String>> names;

        LazyLookup(Function<String, Optional<? extends T>> finder, Supplier<Set<String>> names)
        {
            this.finder = finder;
            this.names = names;
        }

        @Override
        public T get(String name)
        {
            return finder.apply(name).orElse(null);
        }

        @Override
        public Named<T> getIgnoreCase(String name)
        {
            T exact = get(name);
            if (exact != null) {
                return new Named<>(name, exact);
            }
            String lower = name.toLowerCase(Locale.ROOT);
            T found = get(lower);
            return found == null ? null : new Named<>(lower, found);
        }

        @Override
        public Set<String> getNames(LikePattern pattern)
        {
            Set<String> result = new LinkedHashSet<>();
            for (String name : names.get()) {
                if (pattern.matcher().apply(name)) {
                    result.add(name);
                }
            }
            return result;
        }
    }
}
