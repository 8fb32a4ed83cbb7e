package io.ontul.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.cli.CommandEnvironment;

/** Runs {@code ontul kms rotate} in process, and checks where a started server keeps its exchange files and keys. */
class TestOntulMainKms
{
    @TempDir
    Path directory;

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final ByteArrayOutputStream error = new ByteArrayOutputStream();

    @Test
    void rotatesTheKeysInTheDataDirectory()
    {
        Path dataDirectory = directory.resolve("data");
        Path configurationDirectory = directory.resolve("conf");

        assertThat(run(Map.of(), "kms", "rotate", "--conf", configurationDirectory.toString(), "--data-dir", dataDirectory.toString())).as(this::error).isEqualTo(2);
        assertThat(error()).isEqualTo("Configuration directory " + configurationDirectory + " does not exist\n");
        error.reset();

        assertThat(run(Map.of(), "kms", "rotate", "--data-dir", dataDirectory.toString())).as(this::error).isEqualTo(0);
        assertThat(error()).isEmpty();
        assertThat(output()).matches("Rotated master key '.+' in " + java.util.regex.Pattern.quote(dataDirectory.resolve("kms").toString())
                + ": version 1 -> 2\\. New files use version 2; older versions stay readable\\.\n");
        output.reset();

        assertThat(run(Map.of(), "kms", "rotate", "--data-dir=" + dataDirectory)).as(this::error).isEqualTo(0);
        assertThat(output()).contains(": version 2 -> 3. New files use version 3;");
    }

    @Test
    void rotatesTheConfiguredKeyDirectory()
            throws IOException
    {
        Path configurationDirectory = Files.createDirectories(directory.resolve("conf"));
        Path keyDirectory = directory.resolve("keys");
        Files.writeString(configurationDirectory.resolve("ontul.properties"), "ontul.exchange.kms.key-dir=" + keyDirectory + "\n");

        assertThat(run(Map.of(), "kms", "rotate", "--conf", configurationDirectory.toString(), "--data-dir", directory.resolve("data").toString()))
                .as(this::error).isEqualTo(0);
        assertThat(output()).contains(" in " + keyDirectory + ": version 1 -> 2.");
        assertThat(directory.resolve("data").resolve("kms")).doesNotExist();
    }

    @Test
    void aWrongPassphraseFails()
    {
        Path dataDirectory = directory.resolve("data");
        assertThat(run(Map.of("ONTUL_MASTER_KEY", "first secret"), "kms", "rotate", "--data-dir", dataDirectory.toString())).as(this::error).isEqualTo(0);

        assertThat(run(Map.of("ONTUL_MASTER_KEY", "another secret"), "kms", "rotate", "--data-dir", dataDirectory.toString())).isEqualTo(1);
        assertThat(error()).startsWith("Cannot rotate the master key in " + dataDirectory.resolve("kms") + ": ");
    }

    @Test
    void rejectsBadCommandLines()
    {
        assertThat(run(Map.of(), "kms")).isEqualTo(2);
        assertThat(error()).startsWith("Missing kms command: use 'ontul kms rotate'\n\nUsage: ontul kms rotate");
        error.reset();

        assertThat(run(Map.of(), "kms", "list")).isEqualTo(2);
        assertThat(error()).startsWith("Unknown kms command 'list': use 'ontul kms rotate'\n");
        error.reset();

        assertThat(run(Map.of(), "kms", "rotate", "--port", "1")).isEqualTo(2);
        assertThat(error()).startsWith("Unknown option '--port'\n");
        error.reset();

        assertThat(run(Map.of(), "kms", "rotate", "--data-dir")).isEqualTo(2);
        assertThat(error()).startsWith("Option --data-dir needs a value\n");

        assertThat(run(Map.of(), "kms", "--help")).isEqualTo(0);
        assertThat(output()).startsWith("Usage: ontul kms rotate [--conf DIR] [--data-dir DIR]\n");
        output.reset();

        assertThat(run(Map.of(), "help")).isEqualTo(0);
        assertThat(output()).contains("  kms rotate [--conf DIR] [--data-dir DIR]\n");
    }

    @Test
    void aStartedServerKeepsExchangeFilesAndKeysInItsDataDirectory()
            throws IOException
    {
        Path dataDirectory = directory.resolve("data");
        try (OntulServer server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of("secret-password"), new PrintStream(OutputStream.nullOutputStream()))) {
            assertThat(server.engine().exchange().baseDirectory()).isEqualTo(dataDirectory.resolve("exchange"));
            assertThat(server.engine().exchange().spillStore().directory()).isEqualTo(dataDirectory.resolve("exchange").resolve("spill"));
            assertThat(dataDirectory.resolve("exchange").resolve("spill")).isDirectory();
            assertThat(dataDirectory.resolve("kms")).isDirectory();
        }
        assertThat(run(Map.of(), "kms", "rotate", "--data-dir", dataDirectory.toString())).as(this::error).isEqualTo(0);
        assertThat(output()).contains(": version 1 -> 2.");
    }

    private int run(Map<String, String> variables, String... args)
    {
        CommandEnvironment environment = new CommandEnvironment(new ByteArrayInputStream(new byte[0]), output, new PrintStream(error, true, UTF_8), variables, false);
        return new OntulMain(environment, directory.resolve("default-conf")).run(args);
    }

    private String output()
    {
        return output.toString(UTF_8);
    }

    private String error()
    {
        return error.toString(UTF_8);
    }
}
