package io.ontul.engine.statement;

import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.plan.PlanNode;

/**
 * A query planned for one execution: its operator tree and the columns it returns.
 *
 * @param readsOnlySystemTables whether it reads system tables only: such queries need no slot, so they can watch a busy engine
 * @param viewsRead the views it reads, directly or through other views ({@code catalog.schema.view})
 */
public record PlannedQuery(PlanNode root, Schema schema, boolean readsOnlySystemTables, java.util.Set<String> viewsRead)
{
    public PlannedQuery
    {
        viewsRead = java.util.Set.copyOf(viewsRead);
    }
}
