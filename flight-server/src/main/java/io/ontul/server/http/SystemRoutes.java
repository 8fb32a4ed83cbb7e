package io.ontul.server.http;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineFigures;
import io.ontul.engine.api.StreamingJobFigures;

/**
 * The server itself: {@code GET /v1/info} (version, uptime, the caller, statements, memory, spill
 * and jobs by state, for the Admin UI's overview), {@code GET /v1/nodes} (the cluster's nodes, as
 * {@code system.runtime.nodes}) and {@code GET /v1/users} (SHOW USERS: administrators).
 */
public final class SystemRoutes
{
    private final Engine engine;
    private final HttpAuthentication authentication;
    private final String version;
    private final Instant started = Instant.now();

    public SystemRoutes(Engine engine, HttpAuthentication authentication, String version)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.authentication = requireNonNull(authentication, "authentication is null");
        this.version = requireNonNull(version, "version is null");
    }

    public void register(RoutesConfig routes)
    {
        routes.get("/v1/openapi.json", context -> context.contentType("application/json").result(openApi()));
        routes.get("/v1/info", this::info);
        routes.get("/v1/nodes", context -> context.json(Map.of("nodes",
                SqlRows.run(engine.createSession(HttpAuthentication.user(context)), "SELECT * FROM system.runtime.nodes"))));
        routes.get("/v1/users", context -> {
            authentication.requireAdmin(context, "GET /v1/users");
            context.json(Map.of("users", SqlRows.run(engine.createSession(HttpAuthentication.user(context)), "SHOW USERS")));
        });
    }

    /** The OpenAPI document of the REST API, a resource of this package. */
    static byte[] openApi()
    {
        try (java.io.InputStream document = SystemRoutes.class.getResourceAsStream("openapi.json")) {
            return requireNonNull(document, "openapi.json is missing").readAllBytes();
        }
        catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void info(Context context)
    {
        String user = HttpAuthentication.user(context);
        EngineFigures figures = engine.figures();
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("version", version);
        info.put("user", user);
        info.put("admin", authentication.isAdmin(user));
        info.put("startedAt", started.toString());
        info.put("uptimeSeconds", Duration.between(started, Instant.now()).toSeconds());
        info.put("queriesRunning", figures.queriesRunning());
        info.put("queriesQueued", figures.queriesQueued());
        info.put("queriesStarted", figures.queriesStarted());
        info.put("queriesFailed", figures.queriesFailed());
        info.put("memoryAllocatedBytes", figures.memoryAllocatedBytes());
        info.put("memoryLimitBytes", figures.memoryLimitBytes());
        info.put("spillOnDiskBytes", figures.spillOnDiskBytes());
        info.put("spillWrittenBytes", figures.spillWrittenBytes());
        Map<String, Integer> jobs = new TreeMap<>();
        for (StreamingJobFigures job : engine.streamingJobFigures()) {
            jobs.merge(job.state(), 1, Integer::sum);
        }
        info.put("jobsByState", jobs);
        context.json(info);
    }
}
