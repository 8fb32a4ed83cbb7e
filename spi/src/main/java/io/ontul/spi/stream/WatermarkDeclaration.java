package io.ontul.spi.stream;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * A table's event time for streaming jobs: which TIMESTAMP column holds it and how the engine
 * derives watermarks from it. Per split, the watermark is the greatest event time seen minus
 * {@code delay}; a split that has had no records for {@code idleTimeout} stops holding the job's
 * watermark back until it has records again.
 *
 * @param column the event-time column, as the table names it
 * @param delay how far behind the greatest event time seen records may still arrive in time
 * @param idleTimeout when a silent split stops counting; empty to never
 */
public record WatermarkDeclaration(String column, Duration delay, Optional<Duration> idleTimeout)
{
    public WatermarkDeclaration
    {
        requireNonNull(column, "column is null");
        requireNonNull(delay, "delay is null");
        requireNonNull(idleTimeout, "idleTimeout is null");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("watermark delay is negative: " + delay);
        }
    }
}
