package io.ontul.engine.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

class TestStreamingJobOptions
{
    @Test
    void defaults()
    {
        assertThat(StreamingJobOptions.parse(Map.of())).isEqualTo(new StreamingJobOptions(Duration.ofSeconds(10), 3, Duration.ofSeconds(1)));
    }

    @Test
    void values()
    {
        assertThat(StreamingJobOptions.parse(Map.of("checkpoint.interval", "250ms", "restart.max-attempts", "0", "restart.backoff", "2m")))
                .isEqualTo(new StreamingJobOptions(Duration.ofMillis(250), 0, Duration.ofMinutes(2)));
        assertThat(StreamingJobOptions.parse(Map.of("checkpoint.interval", "1h")).checkpointInterval()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void errorsNameTheOption()
    {
        assertInvalid(Map.of("parallelism", "2"), "Unknown streaming job option 'parallelism'; the options are [checkpoint.interval, restart.backoff, restart.max-attempts]");
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
