package io.ontul.engine.sql;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
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
import io.ontul.engine.metadata.StoredViews;
import io.ontul.spi.Connector;
import io.ontul.spi.TableHandle;

/**
 * Builds the Calcite namespace {@code catalog.schema.table} over the engine's catalogs and the
 * views Ontul keeps for them ({@link ViewTable}). Built
 * per statement, so it reflects the tables that exist now; connector metadata is asked lazily,
 * only for the names a statement uses. Unquoted names arrive lower-cased; lookups that Calcite
 * makes case-insensitively try the lower-cased name.
 */
public final class CatalogSchemas
{
    private CatalogSchemas() {}

    /** The schema every catalog has, describing it ({@code system.InformationSchema}). */
    public static final String INFORMATION_SCHEMA = "information_schema";

    /**
     * @param informationSchemas the connector of a catalog's {@code information_schema}, given the
     *        catalog's name and connector (made for the statement's user)
     */
    public static SchemaPlus rootSchema(CatalogManager catalogs, BiFunction<String, Connector, Connector> informationSchemas)
    {
        return rootSchema(catalogs, informationSchemas, Map.of());
    }

    /**
     * The namespace with the tables named in {@code versions} ({@code catalog.schema.table}) at
     * those versions: what a worker plans a coordinator's statement with.
     */
    public static SchemaPlus rootSchema(CatalogManager catalogs, BiFunction<String, Connector, Connector> informationSchemas, Map<String, String> versions)
    {
        SchemaPlus root = CalciteSchema.createRootSchema(false, false).plus();
        for (String name : catalogs.names()) {
            root.add(name, new CatalogSchema(name, catalogs.get(name).orElseThrow(), catalogs.views(), informationSchemas, versions));
        }
        TypeAliases.addTo(root);
        return root;
    }

    private static final class CatalogSchema
            extends AbstractSchema
    {
        private final String catalog;
        private final Connector connector;
        private final StoredViews views;
        private final BiFunction<String, Connector, Connector> informationSchemas;
        private final Map<String, String> versions;

        CatalogSchema(String catalog, Connector connector, StoredViews views, BiFunction<String, Connector, Connector> informationSchemas, Map<String, String> versions)
        {
            this.catalog = catalog;
            this.connector = connector;
            this.views = views;
            this.informationSchemas = informationSchemas;
            this.versions = versions;
        }

        @Override
        public Lookup<? extends Schema> subSchemas()
        {
            return new LazyLookup<>(
                    name -> name.equals(INFORMATION_SCHEMA) && !connector.metadata().listSchemas().contains(name)
                            ? Optional.of(new ConnectorSchema(catalog, name, informationSchemas.apply(catalog, connector), views, versions))
                            : connector.metadata().listSchemas().contains(name) || !connector.metadata().listTables(name).isEmpty()
                            ? Optional.of(new ConnectorSchema(catalog, name, connector, views, versions))
                            : Optional.<Schema>empty(),
                    () -> new LinkedHashSet<>(connector.metadata().listSchemas()));
        }
    }

    /** A schema's tables, and the views Ontul keeps in it (a table hides a view of its name). */
    private static final class ConnectorSchema
            extends AbstractSchema
    {
        private final String catalog;
        private final String schema;
        private final Connector connector;
        private final StoredViews views;
        private final Map<String, String> versions;

        ConnectorSchema(String catalog, String schema, Connector connector, StoredViews views, Map<String, String> versions)
        {
            this.catalog = catalog;
            this.schema = schema;
            this.connector = connector;
            this.views = views;
            this.versions = versions;
        }

        @Override
        public Lookup<Table> tables()
        {
            return new LazyLookup<>(
                    name -> table(name).<Table>map(handle -> new ConnectorTable(connector, handle))
                            .or(() -> views.get(catalog, schema, name).map(ViewTable::new)),
                    () -> {
                        Set<String> names = new LinkedHashSet<>(connector.metadata().listTables(schema));
                        views.list(catalog, schema).forEach(view -> names.add(view.name()));
                        return names;
                    });
        }

        private Optional<TableHandle> table(String name)
        {
            String version = versions.get(catalog + "." + schema + "." + name);
            return version == null ? connector.metadata().getTable(schema, name) : connector.metadata().getTable(schema, name, version);
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
