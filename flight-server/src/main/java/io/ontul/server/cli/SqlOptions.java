package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The command line of {@code ontul sql}. */
public record SqlOptions(OutputFormat format, Optional<Path> configurationDirectory, Optional<String> sql, boolean help,
        Optional<String> server, Optional<String> user, Optional<String> password, boolean tls, Optional<Path> trustedCertificate)
{
    public static final String USAGE = """
            Usage: ontul sql [--format table|csv|json] [--conf DIR] ["SQL"]
                   ontul sql --server HOST:PORT [--user USER] [--password PASSWORD] [--tls] [--trust-cert FILE] [--format ...] ["SQL"]

            Runs the SQL given as argument, or, without one, the statements read from standard
            input. Statements are separated by ';'. With an argument, the first failing statement
            stops the run; from standard input, every statement runs and the exit code is 1 if any
            failed.

              --format FORMAT  table (default): aligned columns; csv: RFC 4180 with a header line;
                               json: one JSON object per row (JSON Lines)
              --conf DIR       configuration directory with ontul.properties and catalogs/
                               (default: the conf directory of the installation)
              --server HOST:PORT  run the statements on a running server (Arrow Flight SQL)
                               instead of an in-process engine
              --user USER      the user on the server (default: admin)
              --password PASSWORD  the user's password (default: the environment variable
                               ONTUL_PASSWORD)
              --tls            connect with TLS (the server has ontul.flight.tls.enabled=true)
              --trust-cert FILE  trust this PEM certificate, e.g. the server's generated
                               data/tls/server.crt (implies --tls)
            """;

    // "-- comment\nSELECT 1" or "-1" are SQL, not options
    private static final Pattern OPTION = Pattern.compile("--?[A-Za-z][A-Za-z-]*(=.*)?", Pattern.DOTALL);

    public SqlOptions
    {
        requireNonNull(format, "format is null");
        requireNonNull(configurationDirectory, "configurationDirectory is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(server, "server is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        requireNonNull(trustedCertificate, "trustedCertificate is null");
    }

    public static SqlOptions parse(List<String> arguments)
            throws UsageException
    {
        OutputFormat format = OutputFormat.TABLE;
        Optional<Path> configurationDirectory = Optional.empty();
        boolean help = false;
        Optional<String> server = Optional.empty();
        Optional<String> user = Optional.empty();
        Optional<String> password = Optional.empty();
        boolean tls = false;
        Optional<Path> trustedCertificate = Optional.empty();
        List<String> positional = new ArrayList<>();
        for (int index = 0; index < arguments.size(); index++) {
            String argument = arguments.get(index);
            if (argument.equals("--")) {
                positional.addAll(arguments.subList(index + 1, arguments.size()));
                break;
            }
            if (!OPTION.matcher(argument).matches()) {
                positional.add(argument);
                continue;
            }
            String name = argument.contains("=") ? argument.substring(0, argument.indexOf('=')) : argument;
            switch (name) {
                case "--help", "-h" -> help = true;
                case "--format" -> {
                    String value = argument.contains("=") ? argument.substring(argument.indexOf('=') + 1) : valueOf(arguments, ++index, name);
                    format = OutputFormat.fromOptionValue(value);
                }
                case "--conf" -> {
                    String value = argument.contains("=") ? argument.substring(argument.indexOf('=') + 1) : valueOf(arguments, ++index, name);
                    configurationDirectory = Optional.of(Path.of(value));
                }
                case "--server" -> server = Optional.of(argument.contains("=") ? argument.substring(argument.indexOf('=') + 1) : valueOf(arguments, ++index, name));
                case "--user" -> user = Optional.of(argument.contains("=") ? argument.substring(argument.indexOf('=') + 1) : valueOf(arguments, ++index, name));
                case "--password" -> password = Optional.of(argument.contains("=") ? argument.substring(argument.indexOf('=') + 1) : valueOf(arguments, ++index, name));
                case "--tls" -> tls = true;
                case "--trust-cert" -> {
                    trustedCertificate = Optional.of(Path.of(argument.contains("=") ? argument.substring(argument.indexOf('=') + 1) : valueOf(arguments, ++index, name)));
                    tls = true;
                }
                default -> throw new UsageException("Unknown option '" + argument + "'");
            }
        }
        if (positional.size() > 1) {
            throw new UsageException("Expected one SQL argument but got " + positional.size() + "; put the SQL in quotes: ontul sql \"SELECT ...\"");
        }
        if (server.isEmpty() && (user.isPresent() || password.isPresent() || tls)) {
            throw new UsageException("--user, --password, --tls and --trust-cert need --server HOST:PORT");
        }
        if (server.isPresent()) {
            ServerAddress.parse(server.get());
        }
        return new SqlOptions(format, configurationDirectory, positional.stream().findFirst(), help, server, user, password, tls, trustedCertificate);
    }

    private static String valueOf(List<String> arguments, int index, String option)
            throws UsageException
    {
        if (index >= arguments.size()) {
            throw new UsageException("Option " + option + " needs a value");
        }
        return arguments.get(index);
    }
}
