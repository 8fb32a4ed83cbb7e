package io.ontul.server.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.ontul.engine.api.EngineConfig;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.kms.KeyRotationCommand;
import io.ontul.spi.OntulException;

/**
 * {@code ontul kms rotate}: adds a version to the master key of the local key management service
 * that encrypts the server's spill files and checkpoints. The key directory is the one the
 * server uses: {@value EncryptionConfig#KEY_DIRECTORY} from the configuration when set, else
 * {@code kms} in the data directory. The passphrase, when keys are protected by one, comes from
 * {@value io.ontul.engine.api.EngineConfig#MASTER_KEY_VARIABLE}.
 */
public final class KmsCommand
{
    public static final String USAGE = """
            Usage: ontul kms rotate [--conf DIR] [--data-dir DIR]

            Adds a new version of the master key that encrypts spill files and checkpoints. Files
            written before keep their version and stay readable; files written afterwards use the
            new one, also by a server that is running.

              --conf DIR      configuration directory with ontul.properties; its
                              ontul.exchange.kms.key-dir names the key directory
                              (default: the conf directory of the installation)
              --data-dir DIR  the server's data directory; the keys are in its kms directory
                              unless ontul.exchange.kms.key-dir is set
                              (default: the data directory of the installation)

            When the keys are protected by a passphrase, ONTUL_MASTER_KEY must hold it.
            """;

    private final CommandEnvironment environment;
    private final Path defaultConfigurationDirectory;
    private final Path defaultDataDirectory;

    public KmsCommand(CommandEnvironment environment, Path defaultConfigurationDirectory, Path defaultDataDirectory)
    {
        this.environment = requireNonNull(environment, "environment is null");
        this.defaultConfigurationDirectory = requireNonNull(defaultConfigurationDirectory, "defaultConfigurationDirectory is null");
        this.defaultDataDirectory = requireNonNull(defaultDataDirectory, "defaultDataDirectory is null");
    }

    public int run(List<String> arguments)
    {
        PrintStream output = new PrintStream(environment.output(), true, UTF_8);
        if (arguments.isEmpty()) {
            return usageError("Missing kms command: use 'ontul kms rotate'");
        }
        String command = arguments.get(0);
        if (command.equals("--help") || command.equals("-h") || command.equals("help")) {
            output.print(USAGE);
            output.flush();
            return SqlCommand.SUCCESS;
        }
        if (!command.equals("rotate")) {
            return usageError("Unknown kms command '" + command + "': use 'ontul kms rotate'");
        }
        Optional<Path> configurationOption = Optional.empty();
        Optional<Path> dataDirectoryOption = Optional.empty();
        for (int index = 1; index < arguments.size(); index++) {
            String argument = arguments.get(index);
            int equals = argument.indexOf('=');
            String name = equals >= 0 ? argument.substring(0, equals) : argument;
            if (name.equals("--help") || name.equals("-h")) {
                output.print(USAGE);
                output.flush();
                return SqlCommand.SUCCESS;
            }
            if (!name.equals("--conf") && !name.equals("--data-dir")) {
                return usageError(argument.startsWith("-") ? "Unknown option '" + argument + "'" : "Unexpected argument '" + argument + "'");
            }
            String value;
            if (equals >= 0) {
                value = argument.substring(equals + 1);
            }
            else if (index + 1 < arguments.size()) {
                value = arguments.get(++index);
            }
            else {
                return usageError("Option " + name + " needs a value");
            }
            if (name.equals("--conf")) {
                configurationOption = Optional.of(Path.of(value));
            }
            else {
                dataDirectoryOption = Optional.of(Path.of(value));
            }
        }
        Path configurationDirectory = configurationOption.orElse(defaultConfigurationDirectory);
        if (configurationOption.isPresent() && !Files.isDirectory(configurationDirectory)) {
            environment.error().println("Configuration directory " + configurationDirectory + " does not exist");
            return SqlCommand.USAGE_ERROR;
        }
        Path keyDirectory;
        try {
            EngineConfig config = EngineConfig.load(configurationDirectory);
            Path dataDirectory = dataDirectoryOption.orElse(defaultDataDirectory);
            keyDirectory = EncryptionConfig.fromProperties(config.properties()).keyDirectory().orElse(dataDirectory.resolve("kms"));
        }
        catch (OntulException e) {
            environment.error().println("Cannot read the configuration in " + configurationDirectory + ": " + e.getMessage());
            return SqlCommand.FAILURE;
        }
        // as the engine reads it (Engine#create), so both open the keys the same way
        Optional<String> passphrase = Optional.ofNullable(environment.variables().get(EngineConfig.MASTER_KEY_VARIABLE));
        int exitCode = KeyRotationCommand.rotate(keyDirectory, passphrase, output, environment.error());
        output.flush();
        return exitCode == 0 ? SqlCommand.SUCCESS : SqlCommand.FAILURE;
    }

    private int usageError(String message)
    {
        environment.error().println(message);
        environment.error().println();
        environment.error().print(USAGE);
        return SqlCommand.USAGE_ERROR;
    }
}
