package io.ontul.server.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.EmbeddedKafkaCatalog;
import io.ontul.engine.api.cluster.ClusterConfig;
import io.ontul.engine.api.cluster.NodeRole;
import io.ontul.server.OntulServer;
import io.ontul.server.cluster.WorkerServer;
import io.ontul.spi.OntulException;

/**
 * {@code ontul start}: runs the server in the foreground until the process is told to stop
 * (SIGTERM, Ctrl-C), then closes it: no new calls, running queries cancelled, engine stopped.
 */
public final class StartCommand
{
    private final CommandEnvironment environment;
    private final Path defaultConfigurationDirectory;
    private final Path defaultDataDirectory;

    public StartCommand(CommandEnvironment environment, Path defaultConfigurationDirectory, Path defaultDataDirectory)
    {
        this.environment = requireNonNull(environment, "environment is null");
        this.defaultConfigurationDirectory = requireNonNull(defaultConfigurationDirectory, "defaultConfigurationDirectory is null");
        this.defaultDataDirectory = requireNonNull(defaultDataDirectory, "defaultDataDirectory is null");
    }

    public int run(List<String> arguments)
    {
        PrintStream error = environment.error();
        PrintStream output = new PrintStream(environment.output(), true, UTF_8);
        StartOptions options;
        try {
            options = StartOptions.parse(arguments);
        }
        catch (UsageException e) {
            error.println(e.getMessage());
            error.println();
            error.print(StartOptions.USAGE);
            return SqlCommand.USAGE_ERROR;
        }
        if (options.help()) {
            output.print(StartOptions.USAGE);
            output.flush();
            return SqlCommand.SUCCESS;
        }
        Path configurationDirectory = options.configurationDirectory().orElse(defaultConfigurationDirectory);
        if (options.configurationDirectory().isPresent() && !Files.isDirectory(configurationDirectory)) {
            error.println("Configuration directory " + configurationDirectory + " does not exist");
            return SqlCommand.USAGE_ERROR;
        }
        Path dataDirectory = options.dataDirectory().orElse(defaultDataDirectory);
        Optional<String> adminPassword = Optional.ofNullable(environment.variables().get(OntulServer.ADMIN_PASSWORD_VARIABLE)).filter(value -> !value.isEmpty());
        EngineConfig loaded;
        try {
            loaded = EngineConfig.load(configurationDirectory);
            if (options.role().isPresent()) {
                loaded = loaded.withProperty(ClusterConfig.ROLE, options.role().get().configName());
            }
            if (NodeRole.parse(loaded.property(ClusterConfig.ROLE, NodeRole.ALL.configName()), ClusterConfig.ROLE) == NodeRole.WORKER) {
                if (options.withKafka()) {
                    error.println("--with-kafka runs a broker beside the coordinator, not beside a worker");
                    return SqlCommand.USAGE_ERROR;
                }
                return runWorker(loaded, dataDirectory, options, output, error);
            }
        }
        catch (OntulException e) {
            error.println("Cannot start Ontul: " + e.getMessage());
            return SqlCommand.FAILURE;
        }
        EngineConfig config = loaded;
        OntulServer server;
        EmbeddedKafkaCatalog kafka = null;
        try {
            if (options.withKafka()) {
                kafka = EmbeddedKafkaCatalog.start(config, dataDirectory);
            }
            // with --port 0 (any free port) the HTTP port is any free one too, unless --http-port says
            Optional<Integer> httpPort = options.httpPort().or(() -> options.port().filter(port -> port == 0));
            server = OntulServer.start(config, dataDirectory, options.port(), httpPort, adminPassword, output);
        }
        catch (IOException e) {
            closeQuietly(kafka);
            error.println("Cannot start the Flight SQL server: " + describe(e));
            return SqlCommand.FAILURE;
        }
        catch (OntulException e) {
            closeQuietly(kafka);
            error.println("Cannot start Ontul: " + e.getMessage());
            return SqlCommand.FAILURE;
        }
        catch (RuntimeException e) {
            if (kafka != null || !options.withKafka()) {
                // the broker runs: the server failed
                closeQuietly(kafka);
                throw e;
            }
            error.println("Cannot start the Kafka broker of --with-kafka: " + e.getMessage());
            return SqlCommand.FAILURE;
        }
        if (kafka != null) {
            try {
                kafka.register(server.engine(), OntulServer.ADMIN_USER, output);
            }
            catch (RuntimeException e) {
                error.println("The Kafka broker runs on " + kafka.bootstrapServers() + " but catalog 'kafka' could not be created: " + e.getMessage());
            }
        }
        EmbeddedKafkaCatalog broker = kafka;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            closeQuietly(broker);
        }, "ontul-shutdown"));
        String address = server.host() + ":" + server.port();
        boolean tls = server.location().getUri().getScheme().equals("grpc+tls");
        output.println("Ontul ready: Flight SQL on " + server.location().getUri()
                + " (JDBC: jdbc:arrow-flight-sql://" + address + "/?useEncryption=" + tls + "&user=" + OntulServer.ADMIN_USER + "&password=...)"
                + server.httpUri().map(uri -> "; HTTP (REST API, metrics, Admin UI) on " + uri).orElse(""));
        output.flush();
        try {
            server.awaitTermination();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        finally {
            server.close();
            closeQuietly(kafka);
        }
        return SqlCommand.SUCCESS;
    }

    /** A worker: serves its coordinator until stopped; fails at once when the coordinator refuses it. */
    private static int runWorker(EngineConfig config, Path dataDirectory, StartOptions options, PrintStream output, PrintStream error)
    {
        WorkerServer worker;
        try {
            worker = WorkerServer.start(config, dataDirectory, options.port());
        }
        catch (IOException e) {
            error.println("Cannot start the worker's Flight endpoint: " + describe(e));
            return SqlCommand.FAILURE;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "ontul-shutdown"));
        try {
            output.println("Worker " + worker.engine().clusterConfig().nodeId() + " serves on " + worker.location().getUri() + "; registering with the coordinator at "
                    + worker.coordinator().getUri() + " ...");
            output.flush();
            worker.awaitRegistered();
            output.println("Ontul ready: worker " + worker.engine().clusterConfig().nodeId() + " on " + worker.location().getUri() + ", registered with the coordinator at "
                    + worker.coordinator().getUri());
            output.flush();
            worker.awaitTermination();
        }
        catch (OntulException e) {
            error.println("Cannot start Ontul: " + e.getMessage());
            worker.close();
            return SqlCommand.FAILURE;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        finally {
            worker.close();
        }
        return SqlCommand.SUCCESS;
    }

    private static void closeQuietly(EmbeddedKafkaCatalog kafka)
    {
        if (kafka != null) {
            try {
                kafka.close();
            }
            catch (RuntimeException e) {
                // stopping anyway
            }
        }
    }

    private static String describe(IOException e)
    {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + cause.getMessage() + ")";
    }
}
