package io.ontul.engine.stream.plan;

import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.plan.TaskContext;

/**
 * Stands where the scan was in a job's plan: its operator returns the batch the job's task
 * offered last, once, then null until the next offer. The filter/project operators above it run
 * unchanged: they end a call to {@code next} when their input has nothing more for now.
 */
public final class StreamFeedNode
        extends PlanNode
{
    private VectorSchemaRoot pending;

    public StreamFeedNode(RelDataType rowType)
    {
        super(rowType, List.of());
    }

    /** Hands a batch, owned by the plan from now on, to the next {@code next()} of the feed's operator. */
    public void offer(VectorSchemaRoot batch)
    {
        if (pending != null) {
            pending.close();
        }
        pending = batch;
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    public String describe()
    {
        return "Stream feed";
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new Operator()
        {
            @Override
            public VectorSchemaRoot next()
            {
                VectorSchemaRoot batch = pending;
                pending = null;
                return batch;
            }

            @Override
            public void close()
            {
                offer(null);
            }
        };
    }
}
