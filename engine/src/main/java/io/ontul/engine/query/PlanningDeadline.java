package io.ontul.engine.query;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.function.Supplier;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Bounds how long a statement may plan ({@value QueryLimits#MAX_PLANNING_TIME}) and lets a kill
 * or the run-time limit stop it while it plans. Calcite's validator and planners cannot be
 * interrupted, so planning runs {@linkplain #within within} a deadline that the places it passes
 * through again and again {@linkplain #check check}: the validator for every expression it types
 * ({@link io.ontul.engine.sql.HiddenColumnValidator}), the rex builder for every call it makes
 * ({@link OntulRexBuilder}), every rule the rewrite passes try ({@link LogicalPlanner}) and every
 * node the physical planner plans. A check costs a clock read; without a deadline it does nothing.
 */
public final class PlanningDeadline
{
    private static final ThreadLocal<PlanningDeadline> CURRENT = new ThreadLocal<>();

    private final long deadlineNanos;
    private final Duration limit;
    private final Runnable stillWanted;

    /**
     * @param limit how long planning may take
     * @param stillWanted throws the reason when the statement was killed or ran out of run time
     */
    public PlanningDeadline(Duration limit, Runnable stillWanted)
    {
        this.limit = requireNonNull(limit, "limit is null");
        this.stillWanted = requireNonNull(stillWanted, "stillWanted is null");
        long nanos = limit.toNanos();
        this.deadlineNanos = System.nanoTime() + nanos;
    }

    /** Plans on this thread under this deadline (nested calls keep the outer one). */
    public <T> T within(Supplier<T> planning)
    {
        if (CURRENT.get() != null) {
            return planning.get();
        }
        CURRENT.set(this);
        try {
            return planning.get();
        }
        finally {
            CURRENT.remove();
        }
    }

    /**
     * Fails the statement planning on this thread if its time is up or it was stopped.
     *
     * @throws OntulException EXCEEDED_TIME_LIMIT, or the reason it was stopped
     */
    public static void check()
    {
        PlanningDeadline deadline = CURRENT.get();
        if (deadline != null) {
            deadline.checkNow();
        }
    }

    private void checkNow()
    {
        if (System.nanoTime() - deadlineNanos > 0) {
            throw new OntulException(ErrorCode.EXCEEDED_TIME_LIMIT, "Query exceeded maximum planning time of " + Durations.format(limit)
                    + " (" + QueryLimits.MAX_PLANNING_TIME + "; lower it for a session with SET SESSION query_max_planning_time = '...'); simplify the statement");
        }
        stillWanted.run();
    }
}
