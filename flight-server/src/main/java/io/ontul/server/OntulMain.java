package io.ontul.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import io.ontul.server.cli.CommandEnvironment;
import io.ontul.server.cli.DemoCommand;
import io.ontul.server.cli.EngineStatementExecutor;
import io.ontul.server.cli.KmsCommand;
import io.ontul.server.cli.SqlCommand;
import io.ontul.server.cli.StartCommand;

/**
 * The {@code ontul} command: {@code bin/ontul <command> [options]}. The installation directory
 * comes from the system property {@value #HOME_PROPERTY} (set by {@code bin/ontul}); its
 * {@code conf} directory is the default configuration and its {@code data} directory the
 * server's default data directory, else {@code conf} and {@code data} in the working directory.
 */
public final class OntulMain
{
    public static final String HOME_PROPERTY = "ontul.home";

    static final String USAGE = """
            Usage: ontul <command> [options]

            Commands:
              start [--conf DIR] [--data-dir DIR] [--port N] [--with-kafka]
                    Run the server (Arrow Flight SQL, default port 47470) in the foreground;
                    --with-kafka also runs a single-node Kafka broker (catalog 'kafka').
              sql [--format table|csv|json] [--conf DIR] ["SQL"]
                    Run SQL: the argument, or the statements on standard input.
              sql --server HOST:PORT [--user U] [--password P] ["SQL"]
                    Run SQL on a running server (password also from ONTUL_PASSWORD).
              demo [--server HOST:PORT] [--password P] [--rate N]
                    The streaming walkthrough on a server started with --with-kafka: a job
                    aggregating produced user events into 10 s windows in an Iceberg table.
              kms rotate [--conf DIR] [--data-dir DIR]
                    Add a master key version for spill files and checkpoints
                    (passphrase from ONTUL_MASTER_KEY when the keys have one).
              help  Show this text. 'ontul <command> --help' shows a command's options.
            """;

    private final CommandEnvironment environment;
    private final Path defaultConfigurationDirectory;

    public OntulMain(CommandEnvironment environment, Path defaultConfigurationDirectory)
    {
        this.environment = requireNonNull(environment, "environment is null");
        this.defaultConfigurationDirectory = requireNonNull(defaultConfigurationDirectory, "defaultConfigurationDirectory is null");
    }

    public static void main(String[] args)
    {
        // raw descriptors: System.out would swallow write errors such as a closed pipe
        CommandEnvironment environment = new CommandEnvironment(
                System.in,
                new FileOutputStream(FileDescriptor.out),
                new PrintStream(new FileOutputStream(FileDescriptor.err), true, UTF_8),
                System.getenv(),
                System.console() != null);
        System.exit(new OntulMain(environment, defaultConfigurationDirectory()).run(args));
    }

    public int run(String... args)
    {
        if (args.length == 0) {
            environment.error().print(USAGE);
            return SqlCommand.USAGE_ERROR;
        }
        List<String> arguments = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "start":
                return new StartCommand(environment, defaultConfigurationDirectory, defaultDataDirectory()).run(arguments);
            case "sql":
                return new SqlCommand(environment, defaultConfigurationDirectory, EngineStatementExecutor::open).run(arguments);
            case "demo":
                return new DemoCommand(environment).run(arguments);
            case "kms":
                return new KmsCommand(environment, defaultConfigurationDirectory, defaultDataDirectory()).run(arguments);
            case "help":
            case "--help":
            case "-h":
                PrintStream output = new PrintStream(environment.output(), true, UTF_8);
                output.print(USAGE);
                output.flush();
                return SqlCommand.SUCCESS;
            default:
                environment.error().println("Unknown command '" + args[0] + "'");
                environment.error().println();
                environment.error().print(USAGE);
                return SqlCommand.USAGE_ERROR;
        }
    }

    static Path defaultDataDirectory()
    {
        String home = System.getProperty(HOME_PROPERTY);
        return home == null ? Path.of("data") : Path.of(home, "data");
    }

    static Path defaultConfigurationDirectory()
    {
        String home = System.getProperty(HOME_PROPERTY);
        return home == null ? Path.of("conf") : Path.of(home, "conf");
    }
}
