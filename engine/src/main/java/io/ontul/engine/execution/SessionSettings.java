package io.ontul.engine.execution;

import java.util.Map;

/**
 * What the engine's packages read of a session: its properties ({@link SessionProperties}). The
 * session itself ({@code engine.api.Session}) is the front door's; code inside reads it through
 * this, so that it does not depend on the API that wires it.
 */
public interface SessionSettings
{
    /** The properties SET SESSION set (names in lower case), not the engine's defaults. */
    Map<String, String> properties();
}
