package io.ontul.engine.stream.job;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.catalog.CatalogManager;
import io.ontul.engine.metadata.StoredStreamingJob;
import io.ontul.engine.metadata.StoredStreamingJobs;
import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.engine.sql.tree.SqlCreateStreamingJob;
import io.ontul.engine.sql.tree.SqlProperties;
import io.ontul.engine.stream.checkpoint.CheckpointCoordinator;
import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.engine.stream.plan.StreamingJobPlanner;
import io.ontul.engine.stream.task.TaskStatus;
import io.ontul.engine.stream.window.WatermarkTracker;
import io.ontul.exchange.checkpoint.CheckpointStore;
import io.ontul.exchange.spill.SpillStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The engine's streaming jobs: creates, starts, stops and drops them, keeps their definitions
 * and states in the metadata store, and on {@link #resumeJobs()} (engine start) restarts those
 * that were running from their latest complete checkpoints. Thread-safe.
 */
public final class StreamingJobManager
        implements AutoCloseable
{
    /** The columns of SHOW STREAMING JOBS: counts and ids are BIGINT, the rest VARCHAR. */
    public static final List<Field> SHOW_COLUMNS = List.of(
            text("name"), text("state"), text("uptime"), bigint("records_in"), bigint("records_out"), bigint("records_rejected"),
            bigint("records_late"), bigint("source_lag"), text("watermark"), bigint("spilled_bytes"), bigint("last_checkpoint_id"), text("last_checkpoint_time"), bigint("last_checkpoint_duration_ms"), bigint("last_checkpoint_bytes"), text("last_error"),
            bigint("parallelism"), text("owner"));

    private static final Logger LOG = LoggerFactory.getLogger(StreamingJobManager.class);

    private final StreamingEnvironment environment;
    private final StreamTaskHost host;
    private final Map<String, StreamingJob> jobs = new ConcurrentHashMap<>();
    /** ontul.streaming.default-parallelism: what a job created without the option 'parallelism' gets, and keeps. */
    private final String defaultParallelism;
    private boolean closed;

    public StreamingJobManager(CatalogManager catalogs, BufferAllocator rootAllocator, ExecutorService workers, StoredStreamingJobs store, Supplier<CheckpointStore> checkpoints,
            Supplier<SpillStore> spillStore, long defaultMaxMemory, io.ontul.engine.security.AccessControl accessControl, String defaultParallelism, StreamCluster cluster)
    {
        this.environment = new StreamingEnvironment(catalogs, rootAllocator, workers, store, checkpoints, spillStore, defaultMaxMemory, accessControl, cluster);
        this.host = new StreamTaskHost(environment, cluster);
        this.defaultParallelism = defaultParallelism.trim();
        try {
            StreamingJobOptions.parse(Map.of(StreamingJobOptions.PARALLELISM, this.defaultParallelism));
        }
        catch (OntulException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid ontul.streaming.default-parallelism '" + this.defaultParallelism + "': use a whole number from 1 to "
                    + StreamingJobOptions.DEFAULTS.get(StreamingJobOptions.MAX_PARALLELISM), e);
        }
    }

    /** Resumes the jobs stored as RUNNING or RESTARTING; a job that cannot start is FAILED with the reason. */
    public synchronized void resumeJobs()
    {
        for (StoredStreamingJob stored : environment.store().list()) {
            StreamingJob job;
            try {
                job = new StreamingJob(stored, environment);
            }
            catch (RuntimeException e) {
                LOG.error("Cannot load streaming job {}: {}", stored.name(), e.getMessage(), e);
                environment.store().updateState(stored.name(), StreamingJobState.FAILED.name(), e.getMessage());
                continue;
            }
            jobs.put(stored.name(), job);
            if (job.state().resumesOnStart()) {
                LOG.info("Resuming streaming job {}", stored.name());
                job.start();
            }
        }
    }

    /**
     * Validates and records the job, then starts it.
     *
     * @param definition the CREATE STREAMING JOB statement's text
     * @return false if a job of that name exists and IF NOT EXISTS was given
     */
    public synchronized boolean create(SqlCreateStreamingJob create, String definition, Optional<String> catalog, Optional<String> schema, String user)
    {
        checkOpen();
        String name = create.name().getSimple();
        Map<String, String> options = new java.util.LinkedHashMap<>(SqlProperties.text(create.options()));
        options.putIfAbsent(StreamingJobOptions.PARALLELISM, defaultParallelism);
        StreamingJobOptions parsed = StreamingJobOptions.parse(options);
        if (environment.store().get(name).isPresent()) {
            if (create.ifNotExists()) {
                return false;
            }
            throw alreadyExists(create, name);
        }
        new StreamingJobPlanner(environment.catalogs(), catalog, schema, environment.accessControl().of(user)).plan(create.insert(), parsed).checkParallelism(parsed.parallelism());
        String jobId = name.replaceAll("[^A-Za-z0-9_]", "_");
        jobId = jobId.substring(0, Math.min(jobId.length(), 100)) + "-" + UUID.randomUUID();
        StoredStreamingJob stored = new StoredStreamingJob(name, jobId, definition, catalog, schema, options, StreamingJobState.CREATED.name(), Optional.empty(), user, Instant.now());
        if (!environment.store().create(stored)) {
            if (create.ifNotExists()) {
                return false;
            }
            throw alreadyExists(create, name);
        }
        StreamingJob job = new StreamingJob(stored, environment);
        jobs.put(name, job);
        job.start();
        return true;
    }

    private static OntulException alreadyExists(SqlCreateStreamingJob create, String name)
    {
        return new OntulException(ErrorCode.ALREADY_EXISTS, StreamingJobPlanner.position(create.name().getParserPosition()) + "Streaming job '" + name + "' already exists");
    }

    public boolean exists(String name)
    {
        return jobs.containsKey(name);
    }

    /** Who created the job: it runs with their privileges, and they (or an administrator) control it. */
    public synchronized String owner(String name)
    {
        checkOpen();
        return job(name).definition().createdBy();
    }

    /** START STREAMING JOB: resumes from the latest complete checkpoint; nothing if it runs. */
    public synchronized void start(String name)
    {
        checkOpen();
        job(name).start();
    }

    /**
     * ALTER STREAMING JOB name SET (...): changes options of a job that is not running, such as
     * its parallelism; the next start restores its state into the new tasks. 'max-parallelism'
     * (the key groups its state is kept by) is fixed for the job's life.
     */
    public synchronized void alter(String name, Map<String, String> changes)
    {
        checkOpen();
        StreamingJob job = job(name);
        if (job.isActive()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Streaming job '" + name + "' is " + job.state() + ": stop it (STOP STREAMING JOB " + name + ") before changing its options");
        }
        StoredStreamingJob stored = job.definition();
        String maxParallelism = StreamingJobOptions.MAX_PARALLELISM;
        if (changes.containsKey(maxParallelism) && !changes.get(maxParallelism).trim().equals(
                stored.options().getOrDefault(maxParallelism, StreamingJobOptions.DEFAULTS.get(maxParallelism)))) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Streaming job option '" + maxParallelism + "' cannot change: the job's state is kept in that many key groups");
        }
        Map<String, String> options = new java.util.TreeMap<>(stored.options());
        options.putAll(changes);
        StreamingJobOptions parsed = StreamingJobOptions.parse(options);
        new StreamingJobPlanner(environment.catalogs(), stored.catalog(), stored.schema(), io.ontul.engine.security.UserAccess.unrestricted(stored.createdBy()))
                .plan(((SqlCreateStreamingJob) OntulParser.parse(stored.definition())).insert(), parsed)
                .checkParallelism(parsed.parallelism());
        environment.store().updateOptions(name, options);
        StoredStreamingJob altered = environment.store().get(name).orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, "Streaming job '" + name + "' does not exist"));
        jobs.put(name, new StreamingJob(altered, environment));
    }

    /** STOP STREAMING JOB: a final checkpoint, committed, then STOPPED. */
    public void stop(String name)
    {
        StreamingJob job;
        synchronized (this) {
            checkOpen();
            job = job(name);
        }
        job.stop();
    }

    /** DROP STREAMING JOB: stops without a checkpoint and deletes the job and its checkpoints; false if there is none. */
    public boolean drop(String name)
    {
        StreamingJob job;
        synchronized (this) {
            checkOpen();
            job = jobs.remove(name);
        }
        if (job == null) {
            return false;
        }
        job.shutdown();
        new CheckpointCoordinator(environment.checkpoints().get(), job.definition().jobId(), Set.of()).deleteAll();
        environment.store().delete(name);
        return true;
    }

    private static Field text(String name)
    {
        return new Field(name, FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    }

    private static Field bigint(String name)
    {
        return new Field(name, FieldType.nullable(new ArrowType.Int(64, true)), null);
    }

    /** SHOW STREAMING JOBS rows, by name, in {@link #SHOW_COLUMNS}. */
    public List<List<Object>> show()
    {
        List<List<Object>> rows = new ArrayList<>();
        jobs.values().stream()
                .sorted(Comparator.comparing(StreamingJob::name))
                .forEach(job -> rows.add(job.showRow()));
        return rows;
    }

    /** Every job's figures, by name. */
    public List<JobFigures> figures()
    {
        return jobs.values().stream()
                .sorted(Comparator.comparing(StreamingJob::name))
                .map(StreamingJob::figures)
                .toList();
    }

    /** DESCRIBE STREAMING JOB rows: (property, value). */
    public List<List<String>> describe(String name)
    {
        StreamingJob job = job(name);
        StoredStreamingJob stored = job.definition();
        List<Object> show = job.showRow();
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < SHOW_COLUMNS.size(); i++) {
            rows.add(Arrays.asList(SHOW_COLUMNS.get(i).getName(), show.get(i) == null ? null : show.get(i).toString()));
        }
        rows.add(List.of("job_id", stored.jobId()));
        rows.add(List.of("definition", stored.definition()));
        StreamingJobOptions.DEFAULTS.forEach((option, defaultValue) -> rows.add(List.of(option, stored.options().getOrDefault(option, defaultValue))));
        rows.add(List.of("created_by", stored.createdBy()));
        rows.add(List.of("created_at", stored.createdAt().toString()));
        try {
            StreamingJobPlan plan = job.lastPlan().orElseGet(() -> new StreamingJobPlanner(environment.catalogs(), stored.catalog(), stored.schema(),
                    io.ontul.engine.security.UserAccess.unrestricted(stored.createdBy()))
                    .plan(((SqlCreateStreamingJob) OntulParser.parse(stored.definition())).insert(), StreamingJobOptions.parse(stored.options())));
            for (String line : plan.describe()) {
                rows.add(List.of("plan", line));
            }
        }
        catch (RuntimeException e) {
            rows.add(List.of("plan", "cannot be planned now: " + e.getMessage()));
        }
        rows.add(List.of("memory_bytes", String.valueOf(job.memoryBytes())));
        rows.add(List.of("memory_peak_bytes", String.valueOf(job.memoryPeakBytes())));
        rows.add(List.of("checkpoints_aborted", String.valueOf(job.checkpointsAborted())));
        for (TaskStatus task : job.tasks()) {
            rows.add(List.of("task", describe(task)));
        }
        List<Long> checkpoints = new CheckpointCoordinator(environment.checkpoints().get(), stored.jobId(), Set.of()).completedCheckpointIds();
        for (Long checkpoint : checkpoints) {
            rows.add(List.of("checkpoint", String.valueOf(checkpoint)));
        }
        return rows;
    }

    /** One line of DESCRIBE STREAMING JOB for a task: {@code source-0: partitions [0, 2], records in 10, out 0, watermark ..., blocked 3 ms, last checkpoint 2 ms, 0 bytes}. */
    private static String describe(TaskStatus task)
    {
        return task.taskId() + (task.node() == null ? "" : " on worker " + task.node()) + ": " + task.assignment() + ", records in " + task.recordsIn() + ", out " + task.recordsOut()
                + ", watermark " + (task.watermark() == WatermarkTracker.NONE ? "none" : java.time.Instant.EPOCH.plus(task.watermark(), java.time.temporal.ChronoUnit.MICROS))
                + ", blocked " + task.blockedMillis() + " ms, last checkpoint " + task.lastCheckpointMillis() + " ms, " + task.lastCheckpointBytes() + " bytes";
    }

    /** The tasks of every running job, for {@code system.runtime.stream_tasks}. */
    public List<TaskStatus> tasks()
    {
        List<TaskStatus> tasks = new ArrayList<>();
        jobs.values().stream().sorted(Comparator.comparing(StreamingJob::name)).forEach(job -> tasks.addAll(job.tasks()));
        tasks.addAll(host.tasks());
        return tasks;
    }

    private StreamingJob job(String name)
    {
        StreamingJob job = jobs.get(name);
        if (job == null) {
            throw new OntulException(ErrorCode.NOT_FOUND, "Streaming job '" + name + "' does not exist");
        }
        return job;
    }

    private void checkOpen()
    {
        if (closed) {
            throw new OntulException(ErrorCode.INTERNAL_ERROR, "The engine is shutting down");
        }
    }

    /** Stops every job's thread without a checkpoint; stored states stay, so the next start resumes them. */
    @Override
    public void close()
    {
        List<StreamingJob> running;
        synchronized (this) {
            closed = true;
            running = new ArrayList<>(jobs.values());
        }
        for (StreamingJob job : running) {
            job.shutdown();
        }
        host.close();
    }

    /** Where the jobs' tasks run. */
    public StreamCluster cluster()
    {
        return environment.cluster();
    }

    /** On a worker: the tasks its coordinator placed here. */
    public StreamTaskHost host()
    {
        return host;
    }
}
