package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * What a command talks to: standard input, standard output (raw bytes, written as UTF-8),
 * standard error, the environment variables, and whether a person sits at a terminal.
 */
public record CommandEnvironment(InputStream input, OutputStream output, PrintStream error, Map<String, String> variables, boolean interactive)
{
    public static final String DEBUG_VARIABLE = "ONTUL_DEBUG";

    public CommandEnvironment
    {
        requireNonNull(input, "input is null");
        requireNonNull(output, "output is null");
        requireNonNull(error, "error is null");
        variables = Map.copyOf(requireNonNull(variables, "variables is null"));
    }

    /** True when {@code ONTUL_DEBUG=1}: errors then print their stack trace. */
    public boolean debug()
    {
        return "1".equals(variables.get(DEBUG_VARIABLE));
    }
}
