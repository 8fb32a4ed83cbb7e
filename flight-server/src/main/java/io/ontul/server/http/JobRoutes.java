package io.ontul.server.http;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;
import io.ontul.engine.api.StreamingJobFigures;

/**
 * Streaming jobs over HTTP, each call the SQL statement it stands for, run in the caller's
 * session (the same permission checks and messages):
 * <ul>
 * <li>{@code POST /v1/jobs}: a job document ({@link JobDocument}), or {@code {"sql": "CREATE
 *     STREAMING JOB ..."}}; answers with the statement it ran and the job.</li>
 * <li>{@code GET /v1/jobs}: SHOW STREAMING JOBS; {@code GET /v1/jobs/{name}}: DESCRIBE STREAMING
 *     JOB with the latest checkpoints (id, time, duration, bytes).</li>
 * <li>{@code POST /v1/jobs/{name}/stop}, {@code /start}, {@code DELETE /v1/jobs/{name}}.</li>
 * </ul>
 */
public final class JobRoutes
{
    /** DESCRIBE STREAMING JOB properties that come once per task, plan line or checkpoint. */
    private static final Set<String> LISTS = Set.of("plan", "task", "checkpoint");

    private final Engine engine;

    public JobRoutes(Engine engine)
    {
        this.engine = requireNonNull(engine, "engine is null");
    }

    public void register(RoutesConfig routes)
    {
        routes.post("/v1/jobs", this::create);
        routes.get("/v1/jobs", this::list);
        routes.get("/v1/jobs/{name}", this::describe);
        routes.post("/v1/jobs/{name}/stop", context -> change(context, "STOP STREAMING JOB "));
        routes.post("/v1/jobs/{name}/start", context -> change(context, "START STREAMING JOB "));
        routes.delete("/v1/jobs/{name}", context -> change(context, "DROP STREAMING JOB "));
    }

    private Session session(Context context)
    {
        return engine.createSession(HttpAuthentication.user(context));
    }

    private void create(Context context)
    {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(context.body());
        }
        catch (JsonProcessingException e) {
            throw HttpError.badRequest("The body is not JSON: " + e.getOriginalMessage());
        }
        String sql;
        String name;
        if (root != null && root.isObject() && root.has("sql")) {
            if (root.size() != 1 || !root.get("sql").isTextual()) {
                throw HttpError.badRequest("Field 'sql' must be the only field, a CREATE STREAMING JOB statement; or send a job document (name, type, config, operations)");
            }
            sql = root.get("sql").asText();
            name = null;
        }
        else {
            JobDocument.Translation translation = JobDocument.translate(root);
            sql = translation.sql();
            name = translation.name();
        }
        Session session = session(context);
        SqlRows.execute(session, sql);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sql", sql);
        if (name != null) {
            body.put("job", job(session, name));
        }
        context.status(201).json(body);
    }

    private void list(Context context)
    {
        context.json(Map.of("jobs", SqlRows.run(session(context), "SHOW STREAMING JOBS")));
    }

    private void describe(Context context)
    {
        context.json(job(session(context), context.pathParam("name")));
    }

    /** DESCRIBE STREAMING JOB as an object: one value per property, lists for plan lines, tasks and checkpoints; with its recent checkpoints' figures. */
    private Map<String, Object> job(Session session, String name)
    {
        Map<String, Object> job = new LinkedHashMap<>();
        for (String list : LISTS) {
            job.put(list + "s", new ArrayList<>());
        }
        for (Map<String, Object> row : SqlRows.run(session, "DESCRIBE STREAMING JOB " + SqlRows.identifier(name))) {
            String property = String.valueOf(row.get("property"));
            Object value = row.get("value");
            if (LISTS.contains(property)) {
                @SuppressWarnings("unchecked")
                List<Object> values = (List<Object>) job.get(property + "s");
                values.add(value);
            }
            else {
                job.put(property, value);
            }
        }
        List<Map<String, Object>> history = new ArrayList<>();
        engine.streamingJobFigures().stream()
                .filter(figures -> figures.name().equals(name))
                .findFirst()
                .ifPresent(figures -> {
                    for (StreamingJobFigures.Checkpoint checkpoint : figures.recentCheckpoints()) {
                        Map<String, Object> entry = new LinkedHashMap<>();
                        entry.put("id", checkpoint.id());
                        entry.put("completedAt", checkpoint.completedAt().toString());
                        entry.put("durationMillis", checkpoint.durationMillis());
                        entry.put("bytes", checkpoint.bytes());
                        history.add(entry);
                    }
                    job.put("restarts", figures.restarts());
                    job.put("partitionLags", figures.partitionLags());
                });
        job.put("checkpointHistory", history);
        return job;
    }

    private void change(Context context, String statement)
    {
        String name = context.pathParam("name");
        Session session = session(context);
        SqlRows.execute(session, statement + SqlRows.identifier(name));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        if (statement.startsWith("DROP")) {
            body.put("state", "DROPPED");
        }
        else {
            body.put("state", SqlRows.run(session, "SHOW STREAMING JOBS").stream()
                    .filter(row -> name.equals(row.get("name")))
                    .map(row -> row.get("state"))
                    .findFirst()
                    .orElse(null));
        }
        context.json(body);
    }
}
