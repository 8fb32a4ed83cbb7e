package io.ontul.engine.system;

import java.util.List;

import io.ontul.engine.query.QueryContext;
import io.ontul.spi.Connector;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

/**
 * A connector built into the engine whose rows depend on the query that reads them, for
 * example on who runs it. The engine calls {@link #splits(TableHandle, ScanSpec, int, QueryContext)}
 * instead of {@link Connector#splits}, once per scan when the query starts.
 */
public interface QueryAwareConnector
        extends Connector
{
    List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits, QueryContext query);
}
