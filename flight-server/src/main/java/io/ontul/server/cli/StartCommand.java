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
import io.ontul.server.OntulServer;
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
        OntulServer server;
        EmbeddedKafkaCatalog kafka = null;
        try {
            EngineConfig config = EngineConfig.load(configurationDirectory);
            if (options.withKafka()) {
                kafka = EmbeddedKafkaCatalog.start(config, dataDirectory);
            }
            server = OntulServer.start(config, dataDirectory, options.port(), adminPassword, output);
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
                + " (JDBC: jdbc:arrow-flight-sql://" + address + "/?useEncryption=" + tls + "&user=" + OntulServer.ADMIN_USER + "&password=...)");
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
