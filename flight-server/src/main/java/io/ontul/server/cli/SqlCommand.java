package io.ontul.server.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import io.ontul.engine.api.QueryResult;
import io.ontul.spi.ErrorCategory;
import io.ontul.spi.OntulException;

/**
 * {@code ontul sql}: runs statements against an in-process engine, or with {@code --server}
 * against a running server, and prints their results.
 * Exit codes: 0 when every statement succeeded, 1 when one failed (or the engine could not
 * start, or output could not be written), 2 for a wrong command line.
 */
public final class SqlCommand
{
    public static final int SUCCESS = 0;
    public static final int FAILURE = 1;
    public static final int USAGE_ERROR = 2;

    public static final String PASSWORD_VARIABLE = "ONTUL_PASSWORD";
    static final String DEFAULT_SERVER_USER = "admin";

    private final CommandEnvironment environment;
    private final Path defaultConfigurationDirectory;
    private final Function<Path, StatementExecutor> executorFactory;
    private final Function<ServerConnection, StatementExecutor> serverExecutorFactory;

    public SqlCommand(CommandEnvironment environment, Path defaultConfigurationDirectory, Function<Path, StatementExecutor> executorFactory)
    {
        this(environment, defaultConfigurationDirectory, executorFactory, FlightStatementExecutor::connect);
    }

    public SqlCommand(CommandEnvironment environment, Path defaultConfigurationDirectory, Function<Path, StatementExecutor> executorFactory,
            Function<ServerConnection, StatementExecutor> serverExecutorFactory)
    {
        this.environment = requireNonNull(environment, "environment is null");
        this.defaultConfigurationDirectory = requireNonNull(defaultConfigurationDirectory, "defaultConfigurationDirectory is null");
        this.executorFactory = requireNonNull(executorFactory, "executorFactory is null");
        this.serverExecutorFactory = requireNonNull(serverExecutorFactory, "serverExecutorFactory is null");
    }

    public int run(List<String> arguments)
    {
        PrintStream error = environment.error();
        SqlOptions options;
        try {
            options = SqlOptions.parse(arguments);
        }
        catch (UsageException e) {
            error.println(e.getMessage());
            error.println();
            error.print(SqlOptions.USAGE);
            return USAGE_ERROR;
        }
        Writer output = new BufferedWriter(new OutputStreamWriter(environment.output(), UTF_8));
        try {
            if (options.help()) {
                output.write(SqlOptions.USAGE);
                output.flush();
                return SUCCESS;
            }
            Path configurationDirectory = options.configurationDirectory().orElse(defaultConfigurationDirectory);
            if (options.configurationDirectory().isPresent() && !Files.isDirectory(configurationDirectory)) {
                error.println("Configuration directory " + configurationDirectory + " does not exist");
                return USAGE_ERROR;
            }
            Function<Path, StatementExecutor> factory = executorFactory;
            if (options.server().isPresent()) {
                Optional<String> password = options.password().or(() -> Optional.ofNullable(environment.variables().get(PASSWORD_VARIABLE)));
                if (password.isEmpty()) {
                    error.println("--server needs a password: --password PASSWORD or the environment variable " + PASSWORD_VARIABLE);
                    return USAGE_ERROR;
                }
                ServerConnection connection = new ServerConnection(ServerAddress.parse(options.server().get()), options.user().orElse(DEFAULT_SERVER_USER), password.get(),
                        options.tls(), options.trustedCertificate());
                factory = ignored -> serverExecutorFactory.apply(connection);
            }
            List<String> statements = StatementSplitter.split(options.sql().isPresent() ? options.sql().get() : readInput());
            if (statements.isEmpty()) {
                return SUCCESS;
            }
            return runStatements(statements, factory, configurationDirectory, options.format().createFormatter(output), options.sql().isEmpty());
        }
        catch (UsageException e) {
            error.println(e.getMessage());
            return USAGE_ERROR;
        }
        catch (IOException e) {
            // "Broken pipe" means the reader went away (e.g. `| head`): nobody wants a message then
            if (e.getMessage() == null || !e.getMessage().contains("Broken pipe")) {
                error.println("Cannot write output: " + e.getMessage());
            }
            return FAILURE;
        }
    }

    private String readInput()
            throws IOException
    {
        if (environment.interactive()) {
            environment.error().println("Reading SQL statements from standard input; end with Ctrl-D.");
        }
        return new String(environment.input().readAllBytes(), UTF_8);
    }

    private int runStatements(List<String> statements, Function<Path, StatementExecutor> factory, Path configurationDirectory, ResultFormatter formatter, boolean continueAfterFailure)
            throws IOException
    {
        StatementExecutor executor;
        try {
            executor = factory.apply(configurationDirectory);
        }
        catch (RuntimeException e) {
            reportFailure("Cannot start Ontul: ", e);
            return FAILURE;
        }
        boolean failed = false;
        try (executor) {
            for (String statement : statements) {
                if (!runStatement(executor, statement, formatter)) {
                    failed = true;
                    if (!continueAfterFailure) {
                        break;
                    }
                }
            }
        }
        return failed ? FAILURE : SUCCESS;
    }

    private boolean runStatement(StatementExecutor executor, String statement, ResultFormatter formatter)
            throws IOException
    {
        try (QueryResult result = executor.execute(statement)) {
            formatter.format(result);
            return true;
        }
        catch (RuntimeException e) {
            // rows printed before the failure come first, then the message
            formatter.flush();
            reportFailure("Query failed: ", e);
            return false;
        }
    }

    private void reportFailure(String prefix, RuntimeException failure)
    {
        PrintStream error = environment.error();
        boolean internal;
        if (failure instanceof OntulException ontulFailure) {
            error.println(prefix + ontulFailure.getMessage());
            internal = ontulFailure.category() == ErrorCategory.INTERNAL;
        }
        else {
            error.println("Internal error (this is a bug): " + failure);
            internal = true;
        }
        if (!internal) {
            return;
        }
        if (environment.debug()) {
            failure.printStackTrace(error);
        }
        else {
            error.println("Set " + CommandEnvironment.DEBUG_VARIABLE + "=1 to print the stack trace.");
        }
    }
}
