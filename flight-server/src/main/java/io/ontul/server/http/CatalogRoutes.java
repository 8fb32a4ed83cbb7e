package io.ontul.server.http;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;

/**
 * What the caller may see of the catalogs, as SHOW CATALOGS, SHOW SCHEMAS, SHOW TABLES and
 * DESCRIBE show it: {@code GET /v1/catalogs}, {@code /v1/catalogs/{catalog}/schemas},
 * {@code /v1/catalogs/{catalog}/schemas/{schema}/tables} and
 * {@code /v1/catalogs/{catalog}/schemas/{schema}/tables/{table}} (its columns).
 */
public final class CatalogRoutes
{
    private final Engine engine;

    public CatalogRoutes(Engine engine)
    {
        this.engine = requireNonNull(engine, "engine is null");
    }

    public void register(RoutesConfig routes)
    {
        routes.get("/v1/catalogs", context -> context.json(Map.of("catalogs", names(session(context), "SHOW CATALOGS"))));
        routes.get("/v1/catalogs/{catalog}/schemas", context -> context.json(Map.of("schemas",
                names(session(context), "SHOW SCHEMAS FROM " + SqlRows.identifier(context.pathParam("catalog"))))));
        routes.get("/v1/catalogs/{catalog}/schemas/{schema}/tables", context -> context.json(Map.of("tables",
                names(session(context), "SHOW TABLES FROM " + SqlRows.identifier(context.pathParam("catalog")) + "." + SqlRows.identifier(context.pathParam("schema"))))));
        routes.get("/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}", context -> context.json(Map.of("columns",
                SqlRows.run(session(context), "DESCRIBE " + SqlRows.identifier(context.pathParam("catalog")) + "." + SqlRows.identifier(context.pathParam("schema"))
                        + "." + SqlRows.identifier(context.pathParam("table"))))));
    }

    private Session session(Context context)
    {
        return engine.createSession(HttpAuthentication.user(context));
    }

    /** The first column of each row. */
    private static List<Object> names(Session session, String sql)
    {
        return SqlRows.run(session, sql).stream().map(row -> row.values().iterator().next()).toList();
    }
}
