package io.ontul.engine.stream.window;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.ontul.spi.stream.WatermarkDeclaration;

/** Watermarks of a task with controlled event time and a controlled clock. */
class TestWatermarkTracker
{
    private static final long SECOND = 1_000_000;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private long now;

    @Test
    void minimumOverSplitsMinusDelayAndNeverBack()
    {
        WatermarkTracker tracker = tracker(Duration.ofSeconds(2), Optional.empty(), "0", "1");
        assertThat(tracker.advance(Map.of("0", 10 * SECOND))).as("split 1 has delivered nothing yet").isEqualTo(WatermarkTracker.NONE);
        assertThat(tracker.advance(Map.of("1", 7 * SECOND))).isEqualTo(5 * SECOND);
        assertThat(tracker.advance(Map.of("1", 20 * SECOND))).as("split 0 now holds it").isEqualTo(8 * SECOND);
        assertThat(tracker.advance(Map.of("0", 3 * SECOND))).as("an older record does not move a split back").isEqualTo(8 * SECOND);
        assertThat(tracker.advance(Map.of("0", 30 * SECOND, "1", 25 * SECOND))).isEqualTo(23 * SECOND);
        assertThat(tracker.maxEventTimes()).isEqualTo(Map.of("0", 30 * SECOND, "1", 25 * SECOND));
    }

    @Test
    void silentSplitStopsHoldingTheWatermarkAfterTheIdleTimeout()
    {
        WatermarkTracker tracker = tracker(Duration.ZERO, Optional.of(Duration.ofSeconds(5)), "0", "1", "2");
        tracker.advance(Map.of("0", 10 * SECOND, "1", 12 * SECOND));
        assertThat(tracker.watermark()).as("split 2 never delivered and is not idle yet").isEqualTo(WatermarkTracker.NONE);
        poll(tracker, 4 * NANOS_PER_SECOND);
        assertThat(tracker.advance(Map.of("0", 11 * SECOND, "1", 13 * SECOND))).isEqualTo(WatermarkTracker.NONE);
        poll(tracker, 1 * NANOS_PER_SECOND);
        assertThat(tracker.advance(Map.of("0", 11 * SECOND, "1", 13 * SECOND))).as("split 2 idle since the start").isEqualTo(11 * SECOND);
        poll(tracker, 5 * NANOS_PER_SECOND);
        assertThat(tracker.advance(Map.of("1", 40 * SECOND))).as("split 0 went idle, split 1 alone counts").isEqualTo(40 * SECOND);
        assertThat(tracker.advance(Map.of("0", 15 * SECOND))).as("split 0 is back but the watermark never goes back").isEqualTo(40 * SECOND);
        assertThat(tracker.advance(Map.of("0", 50 * SECOND, "1", 45 * SECOND))).isEqualTo(45 * SECOND);
        poll(tracker, 10 * NANOS_PER_SECOND);
        assertThat(tracker.advance(Map.of())).as("every split idle: the greatest split watermark").isEqualTo(50 * SECOND);
    }

    @Test
    void lastRecordsBeforeEverySplitFallsSilentStillCount()
    {
        WatermarkTracker tracker = tracker(Duration.ofSeconds(1), Optional.of(Duration.ofSeconds(5)), "0", "1", "2");
        now += NANOS_PER_SECOND / 10;
        assertThat(tracker.advance(Map.of("0", 12 * SECOND, "1", 20 * SECOND))).isEqualTo(WatermarkTracker.NONE);
        poll(tracker, 5 * NANOS_PER_SECOND);
        assertThat(tracker.advance(Map.of())).as("split 2 never delivered; 0 and 1 went quiet").isEqualTo(19 * SECOND);
    }

    @Test
    void restoredStateContinues()
    {
        WatermarkTracker tracker = tracker(Duration.ofSeconds(1), Optional.empty(), "0", "1");
        tracker.restore(Map.of("0", 10 * SECOND, "1", 8 * SECOND, "gone", 99 * SECOND), 7 * SECOND);
        assertThat(tracker.watermark()).isEqualTo(7 * SECOND);
        assertThat(tracker.advance(Map.of("1", 9 * SECOND))).isEqualTo(8 * SECOND);
        assertThat(tracker.maxEventTimes()).isEqualTo(Map.of("0", 10 * SECOND, "1", 9 * SECOND));
    }

    @Test
    void splitThatWasIdleFromTheStartTakesOverWhenTheOtherGoesQuiet()
    {
        WatermarkTracker tracker = tracker(Duration.ZERO, Optional.of(Duration.ofSeconds(1)), "0", "1");
        now += NANOS_PER_SECOND / 10;
        assertThat(tracker.advance(Map.of("0", 12 * SECOND))).isEqualTo(WatermarkTracker.NONE);
        poll(tracker, NANOS_PER_SECOND);
        assertThat(tracker.advance(Map.of())).isEqualTo(12 * SECOND);
        assertThat(tracker.advance(Map.of("0", 5 * SECOND))).isEqualTo(12 * SECOND);
        poll(tracker, NANOS_PER_SECOND / 5);
        assertThat(tracker.advance(Map.of("1", 25 * SECOND))).as("split 0 still active").isEqualTo(12 * SECOND);
        poll(tracker, 2 * NANOS_PER_SECOND);
        assertThat(tracker.advance(Map.of())).as("split 0 quiet, then both").isEqualTo(25 * SECOND);
    }

    @Test
    void timeTheTaskDidNotPollDoesNotMakeSplitsIdle()
    {
        WatermarkTracker tracker = tracker(Duration.ZERO, Optional.of(Duration.ofSeconds(5)), "0", "1");
        assertThat(tracker.advance(Map.of("0", 10 * SECOND, "1", 3 * SECOND))).isEqualTo(3 * SECOND);
        // a checkpoint held the task for 30 s; split 1's backlog is still there
        now += 30 * NANOS_PER_SECOND;
        assertThat(tracker.advance(Map.of("0", 20 * SECOND))).as("split 1 is not idle").isEqualTo(3 * SECOND);
        poll(tracker, 5 * NANOS_PER_SECOND);
        assertThat(tracker.advance(Map.of("0", 21 * SECOND))).as("5 s of polls without split 1").isEqualTo(21 * SECOND);
    }

    /** Empty polls every 100 ms for {@code nanos}. */
    private void poll(WatermarkTracker tracker, long nanos)
    {
        for (long passed = 0; passed < nanos; passed += NANOS_PER_SECOND / 10) {
            now += NANOS_PER_SECOND / 10;
            tracker.advance(Map.of());
        }
    }

    private WatermarkTracker tracker(Duration delay, Optional<Duration> idleTimeout, String... splits)
    {
        return new WatermarkTracker(new WatermarkDeclaration("event_time", delay, idleTimeout), List.of(splits), () -> now);
    }
}
