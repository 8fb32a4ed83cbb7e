package io.ontul.engine.scheduler;

import static java.util.Objects.requireNonNull;

import io.ontul.engine.plan.PlanNode;

/**
 * A part of a query's physical plan that runs on the workers: the splittable pipeline below an
 * exchange ({@code exchange}: a gather or a hash repartition), each worker reading its share of
 * the scans' splits.
 *
 * @param index its place among the plan's fragments (top down, children in order): the same on
 *        every node that plans the same statement
 * @param fingerprint the fragment's plan as text: a worker that planned something else refuses to run it
 * @param parent the fragment whose workers read this one's output (a join's build side inside it:
 *        each worker reads every worker's output, a broadcast), or -1 when the coordinator reads it
 */
public record Fragment(int index, PlanNode exchange, PlanNode root, String fingerprint, int parent)
{
    /** Whether the coordinator reads this fragment's output (else the workers of its parent do). */
    public boolean topLevel()
    {
        return parent < 0;
    }

    public Fragment
    {
        requireNonNull(exchange, "exchange is null");
        requireNonNull(root, "root is null");
        requireNonNull(fingerprint, "fingerprint is null");
    }
}
