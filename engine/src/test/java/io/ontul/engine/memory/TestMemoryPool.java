package io.ontul.engine.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

class TestMemoryPool
{
    private static final long MB = 1 << 20;

    private final AtomicLong arrowBytes = new AtomicLong();
    private final AtomicBoolean canSpill = new AtomicBoolean(true);
    private final MemoryPool pool = new MemoryPool(8 * MB, arrowBytes::get, canSpill::get);

    @Test
    void countsReservedHeapAndArrowBuffers()
    {
        MemoryReservation join = pool.register("HashJoin build", true);
        join.grow(MB);
        arrowBytes.set(2 * MB);
        assertThat(pool.used()).isEqualTo(3 * MB);
        assertThat(pool.reserved()).isEqualTo(MB);
        assertThat(pool.peak()).isEqualTo(MB);
        join.shrink(MB / 2);
        assertThat(join.size()).isEqualTo(MB / 2);
        assertThat(pool.used()).isEqualTo(2 * MB + MB / 2);
        join.close();
        assertThat(pool.reserved()).isZero();
        assertThat(pool.consumers()).isEmpty();
    }

    @Test
    void aGrowPastTheLimitFailsNamingTheConsumer()
    {
        MemoryReservation aggregate = pool.register("HashAggregate", false);
        aggregate.grow(6 * MB);
        arrowBytes.set(MB);
        assertThatThrownBy(() -> aggregate.grow(2 * MB))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                .hasMessage("Query exceeded per-query memory limit of 8MB in HashAggregate (raise it with SET SESSION query_max_memory = '...')");
        // the refused bytes are not kept
        assertThat(aggregate.size()).isEqualTo(6 * MB);
        assertThat(pool.used()).isEqualTo(7 * MB);
        aggregate.grow(MB);
        assertThat(pool.used()).isEqualTo(8 * MB);
    }

    @Test
    void aSelfBoundedConsumerIsCountedButNeverRefused()
    {
        MemoryReservation partial = pool.register("HashAggregate (partial)", false);
        partial.setSelfBounded(true);
        MemoryReservation sort = pool.register("Sort", true);
        assertThat(sort.tryGrow(7 * MB)).isTrue();
        // past the limit: the partial aggregation's grow is kept, it will emit its groups
        partial.grow(2 * MB);
        assertThat(pool.used()).isEqualTo(9 * MB);
        assertThat(pool.peak()).isEqualTo(9 * MB);
        // the others see it and are refused
        assertThat(sort.tryGrow(1)).isFalse();
        partial.shrink(2 * MB);
        assertThat(sort.tryGrow(MB)).isTrue();
    }

    @Test
    void aRefusedTryGrowReservesNothing()
    {
        MemoryReservation sort = pool.register("Sort", true);
        assertThat(sort.tryGrow(7 * MB)).isTrue();
        assertThat(sort.tryGrow(2 * MB)).isFalse();
        assertThat(sort.size()).isEqualTo(7 * MB);
        assertThat(pool.reserved()).isEqualTo(7 * MB);
    }

    @Test
    void nobodySpillsBelowHalfTheLimit()
    {
        MemoryReservation sort = pool.register("Sort", true);
        sort.setHeld(4 * MB);
        arrowBytes.set(4 * MB);
        assertThat(pool.used()).isEqualTo(pool.spillThreshold());
        assertThat(sort.shouldSpill()).isFalse();
        arrowBytes.set(4 * MB + 1);
        assertThat(sort.shouldSpill()).isTrue();
    }

    @Test
    void theLargestSpillableConsumerSpillsFirst()
    {
        MemoryReservation build = pool.register("HashJoin build", true);
        MemoryReservation sort = pool.register("Sort", true);
        MemoryReservation partial = pool.register("HashAggregate (partial)", false);
        build.setHeld(3 * MB);
        sort.setHeld(MB);
        partial.grow(MB);
        arrowBytes.set(4 * MB);
        // 5MB held, 1MB past the threshold: the build alone covers it
        assertThat(build.shouldSpill()).isTrue();
        assertThat(sort.shouldSpill()).isFalse();
        assertThat(partial.shouldSpill()).isFalse();
        assertThat(pool.consumers()).extracting(MemoryReservation::consumer).containsExactly("HashJoin build", "Sort", "HashAggregate (partial)");
    }

    @Test
    void whenTheLargestDoesNotCoverTheExcessTheNextIsAskedToo()
    {
        MemoryReservation build = pool.register("HashJoin build", true);
        MemoryReservation sort = pool.register("Sort", true);
        MemoryReservation window = pool.register("Window", true);
        build.setHeld(2 * MB);
        sort.setHeld(MB);
        window.setHeld(MB / 2);
        // 7MB held (unspillable state besides), 3MB past the threshold: build and sort hold 3MB
        arrowBytes.set(7 * MB);
        assertThat(build.shouldSpill()).isTrue();
        assertThat(sort.shouldSpill()).isTrue();
        assertThat(window.shouldSpill()).isFalse();
        arrowBytes.set(8 * MB);
        assertThat(window.shouldSpill()).isTrue();
    }

    @Test
    void aConsumerThatCanNoLongerSpillLeavesTheAskToTheNext()
    {
        MemoryReservation build = pool.register("HashJoin build", true);
        MemoryReservation sort = pool.register("Sort", true);
        build.setHeld(3 * MB);
        sort.setHeld(MB);
        arrowBytes.set(5 * MB);
        assertThat(sort.shouldSpill()).isFalse();
        // the build is done: its table stays in memory
        build.setSpillable(false);
        assertThat(build.shouldSpill()).isFalse();
        assertThat(sort.shouldSpill()).isTrue();
    }

    @Test
    void equalConsumersAreAskedInTheOrderTheyRegistered()
    {
        MemoryReservation first = pool.register("HashAggregate", true);
        MemoryReservation second = pool.register("HashAggregate", true);
        first.setHeld(2 * MB);
        second.setHeld(2 * MB);
        arrowBytes.set(5 * MB);
        assertThat(first.shouldSpill()).isTrue();
        assertThat(second.shouldSpill()).isFalse();
    }

    @Test
    void withoutASpillStoreNobodyIsAsked()
    {
        MemoryReservation sort = pool.register("Sort", true);
        sort.setHeld(6 * MB);
        arrowBytes.set(7 * MB);
        canSpill.set(false);
        assertThat(sort.shouldSpill()).isFalse();
        canSpill.set(true);
        assertThat(sort.shouldSpill()).isTrue();
    }

    @Test
    void aClosedConsumerIsNoLongerRanked()
    {
        MemoryReservation build = pool.register("HashJoin build", true);
        MemoryReservation sort = pool.register("Sort", true);
        build.setHeld(3 * MB);
        sort.setHeld(MB);
        arrowBytes.set(5 * MB);
        build.close();
        assertThat(sort.shouldSpill()).isTrue();
        // closing twice gives nothing back twice
        build.close();
        assertThat(pool.reserved()).isZero();
    }

    @Test
    void exceededNamesTheConsumerAndWhatToDo()
    {
        MemoryReservation window = pool.register("Window", true);
        assertThat(window.exceeded(null)).hasMessage("Query exceeded per-query memory limit of 8MB in Window (raise it with SET SESSION query_max_memory = '...')");
        assertThat(window.exceeded("a partition of 9 million rows")).hasMessage("Query exceeded per-query memory limit of 8MB in Window: a partition of 9 million rows");
        assertThat(pool.exceeded(null)).hasMessage("Query exceeded per-query memory limit of 8MB (raise it with SET SESSION query_max_memory = '...')");
    }

    @Test
    void aConsumerBelowItsMinimumDoesNotShieldTheNext()
    {
        MemoryReservation window = pool.register("Window", true);
        MemoryReservation aggregate = pool.register("HashAggregate", true);
        // the window would spill only from 1MB on; it holds 900kB, the aggregate 600kB
        window.setMinimumSpill(MB);
        window.setHeld(900 << 10);
        aggregate.setHeld(600 << 10);
        arrowBytes.set(4 * MB + (512 << 10));
        assertThat(window.shouldSpill()).isFalse();
        assertThat(aggregate.shouldSpill()).isTrue();
        window.setHeld(2 * MB);
        assertThat(window.shouldSpill()).isTrue();
        assertThat(aggregate.shouldSpill()).isFalse();
    }

    @Test
    void aRefusedGrowLeavesThePeakAlone()
    {
        MemoryReservation sort = pool.register("Sort", true);
        sort.grow(3 * MB);
        assertThat(sort.tryGrow(6 * MB)).isFalse();
        assertThatThrownBy(() -> sort.grow(6 * MB)).isInstanceOf(OntulException.class);
        assertThat(pool.peak()).isEqualTo(3 * MB);
    }
}
