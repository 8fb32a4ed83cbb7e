package io.ontul.catalog.kafka.decoder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

class TestTimestampText
{
    @Test
    void parsesLocalDateTimesAsUtc()
    {
        assertThat(TimestampText.parseEpochMicros("2026-01-01T00:00:05.123")).isEqualTo(micros(LocalDateTime.of(2026, 1, 1, 0, 0, 5, 123_000_000)));
        assertThat(TimestampText.parseEpochMicros("2026-01-01 00:00:05.1")).isEqualTo(micros(LocalDateTime.of(2026, 1, 1, 0, 0, 5, 100_000_000)));
        assertThat(TimestampText.parseEpochMicros(" 2026-01-01t00:00:05.123456789 ")).isEqualTo(micros(LocalDateTime.of(2026, 1, 1, 0, 0, 5, 123_456_000)));
        assertThat(TimestampText.parseEpochMicros("2026-01-01")).isEqualTo(micros(LocalDateTime.of(2026, 1, 1, 0, 0)));
        assertThat(TimestampText.parseEpochMicros("1900-02-28T23:59:59.5")).isEqualTo(micros(LocalDateTime.of(1900, 2, 28, 23, 59, 59, 500_000_000)));
        assertThat(TimestampText.parseEpochMicros("2026-01-01T05:30:00+05:30")).isEqualTo(micros(LocalDateTime.of(2026, 1, 1, 0, 0)));
        assertThat(TimestampText.parseEpochMicros("2025-12-31T19:00:00-05")).isEqualTo(micros(LocalDateTime.of(2026, 1, 1, 0, 0)));
        assertThat(TimestampText.parseEpochMicros("2026-01-01T00:00:00Z")).isEqualTo(micros(LocalDateTime.of(2026, 1, 1, 0, 0)));
    }

    @Test
    void rejectsWhatIsNotADateTime()
    {
        for (String text : List.of("", "2026", "2026-1-01", "2026-01-01X00:00", "2026-01-01T24:00", "2026-01-01T00:60", "2026-02-29T00:00",
                "2026-01-01T00:00:00.", "2026-01-01T00:00:00.1234567890", "2026-01-01T00:00:00 UTC", "2026-01-01T00:00:00+5")) {
            assertThatThrownBy(() -> TimestampText.parseEpochMicros(text)).as(text).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void formatsWhatItParses()
    {
        assertThat(TimestampText.formatEpochMillis(TimestampText.parseEpochMicros("1969-12-31T23:59:59.999") / 1000)).isEqualTo("1969-12-31T23:59:59.999");
        assertThat(TimestampText.formatEpochMicros(TimestampText.parseEpochMicros("2026-01-01T00:00:05.000001"))).isEqualTo("2026-01-01T00:00:05.000001");
        assertThat(TimestampText.parseMillisOfDay("10:15")).isEqualTo(36_900_000);
        assertThat(TimestampText.parseEpochDay("1970-01-02")).isEqualTo(1);
    }

    private static long micros(LocalDateTime value)
    {
        return value.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + value.getNano() / 1000;
    }
}
