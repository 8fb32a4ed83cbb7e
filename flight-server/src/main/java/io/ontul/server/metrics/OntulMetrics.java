package io.ontul.server.metrics;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineFigures;
import io.ontul.server.http.HttpAuthentication;

/**
 * The server's metrics in the Prometheus text format at {@code GET /metrics} (administrators
 * only: job names and figures of every user), through Micrometer's Prometheus registry, one per
 * server. The engine's figures are read once per scrape; statement durations are recorded as
 * statements end; streaming jobs get series of their own ({@link StreamingJobMeters}), and the JVM
 * and process their usual ones.
 */
public final class OntulMetrics
        implements AutoCloseable
{
    /** Bucket bounds of the statement duration histogram, from a lookup to a long batch statement. */
    static final Duration[] DURATION_BUCKETS = {
            Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15)};

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Engine engine;
    private final HttpAuthentication authentication;
    private final StreamingJobMeters jobs;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private volatile EngineFigures figures;

    public OntulMetrics(Engine engine, HttpAuthentication authentication)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.authentication = requireNonNull(authentication, "authentication is null");
        this.figures = engine.figures();
        // Prometheus's linter refuses two of the processor binder's names (an abbreviated unit, a
        // gauge ending in _count): process CPU time is exported in seconds instead
        registry.config().meterFilter(MeterFilter.deny(id -> id.getName().equals("process.cpu.time") || id.getName().equals("system.cpu.count")));
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        bindProcessCpu();
        bindEngine();
        this.jobs = new StreamingJobMeters(registry);
    }

    private void bindProcessCpu()
    {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            FunctionCounter.builder("process.cpu", os, bean -> bean.getProcessCpuTime() / 1e9)
                    .description("CPU time the server's process used")
                    .baseUnit("seconds")
                    .register(registry);
        }
    }

    private void bindEngine()
    {
        counter("ontul.queries.started", "Statements started (SHOW and SET included)", EngineFigures::queriesStarted, null);
        counter("ontul.queries.finished", "Statements that finished", EngineFigures::queriesFinished, null);
        counter("ontul.queries.failed", "Statements that failed", EngineFigures::queriesFailed, null);
        counter("ontul.queries.cancelled", "Statements cancelled or killed", EngineFigures::queriesCancelled, null);
        gauge("ontul.queries.running", "Statements running now", f -> f.queriesRunning(), null);
        gauge("ontul.queries.queued", "Statements waiting for a slot now", f -> f.queriesQueued(), null);
        gauge("ontul.memory.allocated", "Arrow memory allocated now", f -> f.memoryAllocatedBytes(), "bytes");
        gauge("ontul.memory.limit", "The most Arrow memory the engine may allocate", f -> f.memoryLimitBytes(), "bytes");
        counter("ontul.spill.written", "Spill bytes written (compressed and encrypted)", EngineFigures::spillWrittenBytes, "bytes");
        counter("ontul.spill.read", "Spill bytes read back", EngineFigures::spillReadBytes, "bytes");
        gauge("ontul.spill.disk", "Spill bytes on disk now", f -> f.spillOnDiskBytes(), "bytes");
        counter("ontul.spill.files", "Spill files written", EngineFigures::spillFilesWritten, null);
        engine.onStatementEnd(status -> Timer.builder("ontul.query.duration")
                .description("Time from a statement's start to its end, queueing included")
                .serviceLevelObjectives(DURATION_BUCKETS)
                .tag("state", status.state().toLowerCase(java.util.Locale.ROOT))
                .register(registry)
                .record(Duration.ofMillis(status.elapsedMillis())));
    }

    private void counter(String name, String description, java.util.function.ToLongFunction<EngineFigures> value, String unit)
    {
        FunctionCounter.builder(name, this, metrics -> value.applyAsLong(metrics.figures))
                .description(description)
                .baseUnit(unit)
                .register(registry);
    }

    private void gauge(String name, String description, java.util.function.ToDoubleFunction<EngineFigures> value, String unit)
    {
        Gauge.builder(name, this, metrics -> value.applyAsDouble(metrics.figures))
                .description(description)
                .baseUnit(unit)
                .register(registry);
    }

    public void register(RoutesConfig routes)
    {
        routes.get("/metrics", this::scrape);
    }

    private void scrape(Context context)
    {
        authentication.requireAdmin(context, "GET /metrics");
        context.contentType("text/plain; version=0.0.4; charset=utf-8").result(scrape());
    }

    /** The text a scrape returns now: the engine's and the jobs' figures are read first. */
    public String scrape()
    {
        figures = engine.figures();
        jobs.refresh(engine.streamingJobFigures());
        return registry.scrape();
    }

    @Override
    public void close()
    {
        gc.close();
        registry.close();
    }
}
