package io.ontul.engine.api.cluster;

import java.util.Locale;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * What a process of an Ontul cluster does. {@link #ALL} is the single server: coordinator and
 * worker in one JVM, the cluster with one member.
 */
public enum NodeRole
{
    /** Coordinator and worker in one process (the default). */
    ALL,
    /** Plans, schedules and coordinates checkpoints; serves Flight SQL to clients; registers workers. */
    COORDINATOR,
    /** Runs tasks for its coordinator; accepts calls from cluster members only. */
    WORKER;

    /** The name as configuration and {@code system.runtime.nodes} spell it. */
    public String configName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws OntulException INVALID_ARGUMENT naming {@code setting} and the accepted names */
    public static NodeRole parse(String text, String setting)
    {
        for (NodeRole role : values()) {
            if (role.configName().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return role;
            }
        }
        throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid %s '%s': expected coordinator, worker or all", setting, text);
    }
}
