package io.ontul.engine.stream.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.ontul.engine.stream.shuffle.ChannelElement;
import io.ontul.engine.stream.shuffle.InputGate;
import io.ontul.engine.stream.window.WatermarkTracker;

/**
 * Barrier alignment and watermarks of a task with several hand-fed input channels: no clock, no
 * threads except where back-pressure itself is the subject.
 */
class TestAlignedInput
{
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).as("every batch freed").isZero();
        allocator.close();
    }

    @Test
    void aBarrierHoldsItsChannelUntilEveryChannelDeliveredIt()
            throws InterruptedException
    {
        try (InputGate gate = new InputGate(2, 8)) {
            gate.put(0, records(1));
            gate.put(0, new ChannelElement.Barrier(5));
            gate.put(0, records(2));
            gate.put(1, records(10));
            gate.put(1, records(11));
            gate.put(1, new ChannelElement.Barrier(5));
            gate.put(1, records(12));
            List<String> events = drain(gate, new AlignedInput(2), 7);
            int barrier = events.indexOf("barrier 5");
            assertThat(barrier).as(events.toString()).isEqualTo(3);
            assertThat(events.subList(0, barrier)).as("what came before the barrier on each channel").containsExactlyInAnyOrder("rows 1", "rows 10", "rows 11");
            assertThat(events.subList(barrier + 1, events.size())).as("rows behind the barrier wait for the snapshot").containsExactlyInAnyOrder("rows 2", "rows 12");
            assertThat(events.indexOf("rows 10")).isLessThan(events.indexOf("rows 11"));
        }
    }

    @Test
    void aHeldBackChannelIsNotReadWhileTheOthersAre()
            throws InterruptedException
    {
        try (InputGate gate = new InputGate(2, 8)) {
            AlignedInput input = new AlignedInput(2);
            List<String> events = new ArrayList<>();
            gate.put(0, new ChannelElement.Barrier(1));
            gate.put(0, records(7));
            accept(gate, input, events);
            assertThat(input.heldBack().get(0)).isTrue();
            assertThat(gate.take(input.heldBack(), 0, 0, TimeUnit.NANOSECONDS)).as("channel 0 holds rows, but is held back").isNull();
            gate.put(1, records(8));
            accept(gate, input, events);
            gate.put(1, new ChannelElement.Barrier(1));
            accept(gate, input, events);
            accept(gate, input, events);
            assertThat(events).containsExactly("rows 8", "barrier 1", "rows 7");
            assertThat(input.heldBack().isEmpty()).isTrue();
        }
    }

    @Test
    void theWatermarkIsTheMinimumOverChannelsLeavingOutIdleAndEndedOnes()
    {
        AlignedInput input = new AlignedInput(3);
        List<String> events = new ArrayList<>();
        feed(input, events, 0, new ChannelElement.Watermark(10));
        assertThat(input.watermark()).as("channels 1 and 2 have said nothing yet").isEqualTo(WatermarkTracker.NONE);
        feed(input, events, 1, new ChannelElement.Watermark(20));
        feed(input, events, 2, new ChannelElement.Watermark(5));
        assertThat(input.watermark()).isEqualTo(5);
        feed(input, events, 2, new ChannelElement.Idle());
        assertThat(input.watermark()).as("idle channel 2 no longer holds it").isEqualTo(10);
        feed(input, events, 2, records(3));
        feed(input, events, 0, new ChannelElement.Watermark(30));
        feed(input, events, 1, new ChannelElement.Watermark(30));
        assertThat(input.watermark()).as("channel 2 delivers again and holds it at its 5; it never goes back").isEqualTo(10);
        feed(input, events, 2, new ChannelElement.Watermark(40));
        assertThat(input.watermark()).isEqualTo(30);
        feed(input, events, 0, new ChannelElement.EndOfInput());
        feed(input, events, 1, new ChannelElement.Watermark(35));
        assertThat(input.watermark()).as("ended channel 0 left out").isEqualTo(35);
        feed(input, events, 1, new ChannelElement.EndOfInput());
        assertThat(input.finished()).isFalse();
        assertThat(input.watermark()).isEqualTo(40);
        feed(input, events, 2, new ChannelElement.EndOfInput());
        assertThat(input.finished()).isTrue();
        assertThat(events).containsExactly("watermark 5", "watermark 10", "rows 3", "watermark 30", "watermark 35", "watermark 40", "end");
    }

    @Test
    void aChannelThatEndsDuringAlignmentCountsAsAligned()
    {
        AlignedInput input = new AlignedInput(3);
        List<String> events = new ArrayList<>();
        feed(input, events, 0, new ChannelElement.Barrier(9));
        feed(input, events, 1, new ChannelElement.EndOfInput());
        assertThat(events).isEmpty();
        feed(input, events, 2, new ChannelElement.Barrier(9));
        assertThat(events).containsExactly("barrier 9");
    }

    @Test
    void anotherBarrierDuringAlignmentIsAProtocolError()
    {
        AlignedInput input = new AlignedInput(2);
        List<String> events = new ArrayList<>();
        feed(input, events, 0, new ChannelElement.Barrier(3));
        assertThatThrownBy(() -> feed(input, events, 1, new ChannelElement.Barrier(4)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Channel 1 delivered barrier 4 while barrier 3 is being aligned");
        assertThatThrownBy(() -> feed(input, events, 0, records(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Channel 0 delivered Records while held back at barrier 3");
    }

    /**
     * A window task's loop ({@link WindowTask#consume}) under {@link TaskReporting}: what goes wrong
     * in it reaches the coordinator as a failure carrying the cause (a protocol error of the
     * channels, an error of the handler, an {@link Error} too); a task whose every channel ended
     * reports that it finished; one whose gate was closed by its ending attempt reports nothing.
     */
    @Test
    void aTaskFailureIsReportedNotSwallowed()
    {
        Queue<TaskReport> reports = new ArrayDeque<>();
        try (InputGate gate = new InputGate(2, 8)) {
            gate.put(0, new ChannelElement.Barrier(3));
            gate.put(1, new ChannelElement.Barrier(4));
            TaskReporting.run("window-0", reports, () -> WindowTask.consume(gate, new AlignedInput(2), recorder(new ArrayList<>())));
        }
        catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(reports.poll()).isInstanceOfSatisfying(TaskReport.Failure.class, failure -> {
            assertThat(failure.taskId()).isEqualTo("window-0");
            assertThat(failure.cause()).isInstanceOf(IllegalStateException.class).hasMessage("Channel 1 delivered barrier 4 while barrier 3 is being aligned");
        });

        AlignedInput.Handler failing = new AlignedInput.Handler()
        {
            @Override
            public void records(int channel, VectorSchemaRoot batch)
            {
                throw new AssertionError("the window state is broken");
            }

            @Override
            public void barrier(long checkpointId) {}

            @Override
            public void watermark(long micros) {}

            @Override
            public void endOfInput() {}
        };
        try (InputGate gate = new InputGate(2, 8)) {
            gate.put(1, records(7));
            TaskReporting.run("window-1", reports, () -> WindowTask.consume(gate, new AlignedInput(2), failing));
        }
        catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(reports.poll()).isInstanceOfSatisfying(TaskReport.Failure.class, failure -> {
            assertThat(failure.taskId()).isEqualTo("window-1");
            assertThat(failure.cause()).isInstanceOf(AssertionError.class).hasMessage("the window state is broken");
        });

        List<String> events = new ArrayList<>();
        try (InputGate gate = new InputGate(2, 8)) {
            gate.put(0, new ChannelElement.EndOfInput());
            gate.put(1, records(8));
            gate.put(1, new ChannelElement.EndOfInput());
            TaskReporting.run("window-2", reports, () -> WindowTask.consume(gate, new AlignedInput(2), recorder(events)));
            gate.close();
            TaskReporting.run("window-3", reports, () -> WindowTask.consume(gate, new AlignedInput(2), recorder(events)));
        }
        catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(events).containsExactly("rows 8", "end");
        assertThat(reports).containsExactly(new TaskReport.Finished("window-2"));
    }

    @Test
    void aFullChannelMakesItsSenderWaitAndClosingFreesWhatIsQueued()
            throws Exception
    {
        InputGate gate = new InputGate(1, 2);
        gate.put(0, records(1));
        gate.put(0, records(2));
        long[] waited = new long[1];
        Thread sender = new Thread(() -> {
            try {
                waited[0] = gate.put(0, records(3));
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sender.start();
        while (sender.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        assertThat(gate.queued(0)).as("the third batch waits with its sender").isEqualTo(2);
        InputGate.Taken taken = gate.take(new BitSet(), 0, 1, TimeUnit.SECONDS);
        ChannelElement.release(taken.element());
        sender.join();
        assertThat(waited[0]).as("time the sender was held back").isPositive();
        assertThat(gate.queued(0)).isEqualTo(2);
        gate.close();
        assertThat(gate.take(new BitSet(), 0, 0, TimeUnit.SECONDS)).isNull();
        gate.put(0, records(4));
        assertThat(gate.queued(0)).as("a closed gate drops what is put").isZero();
    }

    private ChannelElement records(long value)
    {
        BigIntVector vector = new BigIntVector("v", allocator);
        vector.allocateNew(1);
        vector.set(0, value);
        vector.setValueCount(1);
        return new ChannelElement.Records(VectorSchemaRoot.of(vector));
    }

    private static List<String> drain(InputGate gate, AlignedInput input, int elements)
            throws InterruptedException
    {
        List<String> events = new ArrayList<>();
        for (int i = 0; i < elements; i++) {
            accept(gate, input, events);
        }
        return events;
    }

    private static void accept(InputGate gate, AlignedInput input, List<String> events)
            throws InterruptedException
    {
        InputGate.Taken taken = gate.take(input.heldBack(), 0, 0, TimeUnit.NANOSECONDS);
        assertThat(taken).as("an element ready").isNotNull();
        input.accept(taken.channel(), taken.element(), recorder(events));
    }

    private static void feed(AlignedInput input, List<String> events, int channel, ChannelElement element)
    {
        input.accept(channel, element, recorder(events));
    }

    private static AlignedInput.Handler recorder(List<String> events)
    {
        return new AlignedInput.Handler()
        {
            @Override
            public void records(int channel, VectorSchemaRoot batch)
            {
                events.add("rows " + ((BigIntVector) batch.getVector(0)).get(0));
            }

            @Override
            public void barrier(long checkpointId)
            {
                events.add("barrier " + checkpointId);
            }

            @Override
            public void watermark(long micros)
            {
                events.add("watermark " + micros);
            }

            @Override
            public void endOfInput()
            {
                events.add("end");
            }
        };
    }
}
