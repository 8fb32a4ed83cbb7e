package io.ontul.bench.streaming;

import java.time.LocalTime;
import java.util.Locale;

/** Progress lines on standard error, for the parent and the child JVMs alike. */
final class Progress
{
    private Progress() {}

    static void log(String format, Object... arguments)
    {
        System.err.printf(Locale.ROOT, "[%s] %s%n", LocalTime.now().withNano(0), String.format(Locale.ROOT, format, arguments));
    }
}
