package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.ontul.engine.api.cluster.NodeRole;

/** The command line of {@code ontul start}. */
public record StartOptions(Optional<Path> configurationDirectory, Optional<Path> dataDirectory, Optional<Integer> port, Optional<Integer> httpPort, Optional<NodeRole> role, boolean withKafka, boolean help)
{
    public static final String USAGE = """
            Usage: ontul start [--conf DIR] [--data-dir DIR] [--port N] [--http-port N] [--role ROLE] [--with-kafka]

            Runs the Ontul server in the foreground: the engine with its catalogs behind an Arrow
            Flight SQL endpoint (JDBC, ADBC, BI tools). It prints a line with 'Ontul ready' once
            clients can connect, and stops cleanly on Ctrl-C or SIGTERM.

              --conf DIR      configuration directory with ontul.properties and catalogs/
                              (default: the conf directory of the installation)
              --data-dir DIR  directory for the server's own files (metadata store, keys, spill)
                              (default: the data directory of the installation)
              --port N        Flight SQL port (default: ontul.flight.port, else 47470)
              --http-port N   port of the REST API, metrics and Admin UI (default:
                              ontul.http.port, else 47480, or any free port with --port 0;
                              0: any free port; -1: none)
              --role ROLE     all (default: one process is the whole cluster), coordinator
                              (plans, serves clients, registers workers) or worker (runs tasks
                              for the coordinator at ontul.cluster.coordinator); both need
                              ontul.cluster.secret (default: ontul.cluster.role, else all)
              --with-kafka    also run a single-node Kafka broker on 127.0.0.1 (port
                              ontul.kafka.embedded.port, else 9092; data in DATA-DIR/kafka) and
                              register it as catalog 'kafka' (try it: bin/ontul demo)

            User 'admin' gets the password in the environment variable ONTUL_ADMIN_PASSWORD; without
            it, the first start generates a password and prints it once.
            """;

    public StartOptions
    {
        requireNonNull(configurationDirectory, "configurationDirectory is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(port, "port is null");
        requireNonNull(httpPort, "httpPort is null");
        requireNonNull(role, "role is null");
    }

    public static StartOptions parse(List<String> arguments)
            throws UsageException
    {
        Optional<Path> configurationDirectory = Optional.empty();
        Optional<Path> dataDirectory = Optional.empty();
        Optional<Integer> port = Optional.empty();
        Optional<Integer> httpPort = Optional.empty();
        Optional<NodeRole> role = Optional.empty();
        boolean help = false;
        boolean withKafka = false;
        for (int index = 0; index < arguments.size(); index++) {
            String argument = arguments.get(index);
            int equals = argument.indexOf('=');
            String name = equals >= 0 ? argument.substring(0, equals) : argument;
            if (name.equals("--help") || name.equals("-h")) {
                help = true;
                continue;
            }
            if (argument.equals("--with-kafka")) {
                withKafka = true;
                continue;
            }
            if (!name.equals("--conf") && !name.equals("--data-dir") && !name.equals("--port") && !name.equals("--http-port") && !name.equals("--role")) {
                throw new UsageException(argument.startsWith("-") ? "Unknown option '" + argument + "'" : "Unexpected argument '" + argument + "'");
            }
            String value;
            if (equals >= 0) {
                value = argument.substring(equals + 1);
            }
            else if (index + 1 < arguments.size()) {
                value = arguments.get(++index);
            }
            else {
                throw new UsageException("Option " + name + " needs a value");
            }
            switch (name) {
                case "--conf" -> configurationDirectory = Optional.of(Path.of(value));
                case "--data-dir" -> dataDirectory = Optional.of(Path.of(value));
                case "--role" -> role = Optional.of(parseRole(value));
                case "--http-port" -> httpPort = Optional.of(value.equals("-1") ? -1 : parsePort(name, value));
                default -> port = Optional.of(parsePort(name, value));
            }
        }
        return new StartOptions(configurationDirectory, dataDirectory, port, httpPort, role, withKafka, help);
    }

    private static NodeRole parseRole(String value)
            throws UsageException
    {
        try {
            return NodeRole.parse(value, "--role");
        }
        catch (io.ontul.spi.OntulException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static int parsePort(String option, String value)
            throws UsageException
    {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        }
        catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " needs a port number between 0 and 65535, not '" + value + "'");
    }
}
