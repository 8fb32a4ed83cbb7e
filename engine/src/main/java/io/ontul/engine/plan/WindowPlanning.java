package io.ontul.engine.plan;

import org.apache.calcite.rel.core.Window;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** Plans window functions (OVER). */
final class WindowPlanning
{
    private WindowPlanning() {}

    static PlanNode plan(Window window, PhysicalPlanner planner)
    {
        throw new OntulException(ErrorCode.NOT_SUPPORTED, "Window functions are not supported yet");
    }
}
