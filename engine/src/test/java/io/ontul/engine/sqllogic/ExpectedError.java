package io.ontul.engine.sqllogic;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import io.ontul.spi.ErrorCategory;
import io.ontul.spi.OntulException;

/**
 * The error a case expects: the exact message (or a prefix, when written with a trailing
 * {@code ...}) and optionally the {@link ErrorCategory}.
 */
public record ExpectedError(Optional<ErrorCategory> category, String message, boolean prefix)
{
    private static final String PREFIX_MARKER = "...";

    public ExpectedError
    {
        requireNonNull(category, "category is null");
        requireNonNull(message, "message is null");
    }

    /**
     * Parses the text after {@code statement error }: {@code [CATEGORY: ]message[...]}.
     */
    public static ExpectedError parse(String text)
    {
        requireNonNull(text, "text is null");
        Optional<ErrorCategory> category = Optional.empty();
        String message = text;
        for (ErrorCategory candidate : ErrorCategory.values()) {
            String label = candidate.name() + ": ";
            if (text.startsWith(label)) {
                category = Optional.of(candidate);
                message = text.substring(label.length());
                break;
            }
        }
        boolean prefix = message.endsWith(PREFIX_MARKER);
        if (prefix) {
            message = message.substring(0, message.length() - PREFIX_MARKER.length());
        }
        if (message.isEmpty()) {
            throw new IllegalArgumentException("expected error message is empty");
        }
        return new ExpectedError(category, message, prefix);
    }

    public boolean matches(OntulException exception)
    {
        if (category.isPresent() && category.get() != exception.category()) {
            return false;
        }
        String actual = exception.getMessage();
        return prefix ? actual.startsWith(message) : actual.equals(message);
    }

    @Override
    public String toString()
    {
        return category.map(value -> value.name() + ": ").orElse("") + message + (prefix ? PREFIX_MARKER : "");
    }
}
