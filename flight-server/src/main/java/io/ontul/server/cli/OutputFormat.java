package io.ontul.server.cli;

import java.io.Writer;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The output formats of {@code ontul sql --format}. */
public enum OutputFormat
{
    TABLE(TableFormatter::new),
    CSV(CsvFormatter::new),
    JSON(JsonLinesFormatter::new);

    private final Function<Writer, ResultFormatter> factory;

    OutputFormat(Function<Writer, ResultFormatter> factory)
    {
        this.factory = factory;
    }

    public ResultFormatter createFormatter(Writer output)
    {
        return factory.apply(output);
    }

    public String optionValue()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    public static OutputFormat fromOptionValue(String value)
            throws UsageException
    {
        for (OutputFormat format : values()) {
            if (format.optionValue().equals(value.toLowerCase(Locale.ROOT))) {
                return format;
            }
        }
        String expected = Arrays.stream(values()).map(OutputFormat::optionValue).collect(Collectors.joining(", "));
        throw new UsageException("Unknown format '" + value + "': expected one of " + expected);
    }
}
