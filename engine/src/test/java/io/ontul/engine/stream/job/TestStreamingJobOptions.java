package io.ontul.engine.stream.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

class TestStreamingJobOptions
{
    @Test
    void defaults()
    {
        assertThat(StreamingJobOptions.parse(Map.of())).isEqualTo(new StreamingJobOptions(Duration.ofSeconds(10), Duration.ofMinutes(10), Duration.ZERO, 3, Duration.ofSeconds(1),
                StreamingJobOptions.DeliveryGuarantee.EXACTLY_ONCE, Optional.empty(), OptionalLong.empty(), 1, 128));
    }

    @Test
    void values()
    {
        assertThat(StreamingJobOptions.parse(Map.of("checkpoint.interval", "250ms", "restart.max-attempts", "0", "restart.backoff", "2m",
                "checkpoint.timeout", "30s", "checkpoint.min-pause", "100ms", "delivery.guarantee", "At-Least-Once", "parallelism", "4", "max-parallelism", "16", "rejects.table", "lake.bad.rows", "max-memory", "64MB")))
                .isEqualTo(new StreamingJobOptions(Duration.ofMillis(250), Duration.ofSeconds(30), Duration.ofMillis(100), 0, Duration.ofMinutes(2),
                        StreamingJobOptions.DeliveryGuarantee.AT_LEAST_ONCE, Optional.of("lake.bad.rows"), OptionalLong.of(64L << 20), 4, 16));
        assertThat(StreamingJobOptions.parse(Map.of("checkpoint.interval", "1h")).checkpointInterval()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void errorsNameTheOption()
    {
        assertInvalid(Map.of("parallelizm", "2"), "Unknown streaming job option 'parallelizm'; the options are "
                + "[checkpoint.interval, checkpoint.min-pause, checkpoint.timeout, delivery.guarantee, max-memory, max-parallelism, parallelism, rejects.table, restart.backoff, restart.max-attempts]");
        assertInvalid(Map.of("delivery.guarantee", "at-most-once"), "Invalid value 'at-most-once' for streaming job option 'delivery.guarantee': use 'exactly-once' or 'at-least-once'");
        assertInvalid(Map.of("parallelism", "0"), "Invalid value '0' for streaming job option 'parallelism': use a whole number of at least 1");
        assertInvalid(Map.of("parallelism", "9", "max-parallelism", "8"),
                "Streaming job option 'parallelism' = 9 is more than its 'max-parallelism' of 8: a job cannot have more tasks than key groups");
        assertInvalid(Map.of("max-parallelism", "40000"), "Streaming job option 'max-parallelism' = 40000 is more than 32768");
        assertInvalid(Map.of("checkpoint.interval", "soon"),
                "Invalid duration 'soon' for streaming job option 'checkpoint.interval': use a number with a unit, such as 500ms, 10s, 5m or 1h");
        assertInvalid(Map.of("checkpoint.interval", "1ms"), "Streaming job option 'checkpoint.interval' must be at least 10ms: 1ms");
        assertInvalid(Map.of("restart.max-attempts", "-1"), "Invalid value '-1' for streaming job option 'restart.max-attempts': use a whole number of at least 0");
    }

    private static void assertInvalid(Map<String, String> options, String message)
    {
        assertThatThrownBy(() -> StreamingJobOptions.parse(options))
                .isInstanceOfSatisfying(OntulException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(e.getMessage()).isEqualTo(message);
                });
    }
}
