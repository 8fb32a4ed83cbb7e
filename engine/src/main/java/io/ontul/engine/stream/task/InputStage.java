package io.ontul.engine.stream.task;

import java.util.function.Consumer;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.plan.TaskContext;
import io.ontul.engine.stream.plan.StreamingJobPlan;

/**
 * The stateless part of a job, run by each source task: the polled rows enter the plan's feed and
 * come out of its filter/project and window table function operators. Single-threaded.
 */
final class InputStage
        implements AutoCloseable
{
    private final StreamingJobPlan plan;
    private final Operator input;

    InputStage(StreamingJobPlan plan, TaskContext task)
    {
        this.plan = plan;
        this.input = plan.input().open(task);
    }

    /** Runs a polled batch, owned from now on, through the operators; {@code consumer} must not keep what it gets. */
    void process(VectorSchemaRoot polled, Consumer<VectorSchemaRoot> consumer)
    {
        plan.feed().offer(polled);
        WindowStage.drain(input, consumer);
    }

    @Override
    public void close()
    {
        input.close();
    }
}
