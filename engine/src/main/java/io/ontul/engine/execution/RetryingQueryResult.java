package io.ontul.engine.execution;

import static java.util.Objects.requireNonNull;

import java.util.function.Supplier;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.api.QueryResult;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * A query under {@code retry_policy = 'query'}: when it fails with WORKER_LOST before it has
 * returned a row, it is planned and started again, once (its new plan places its fragments on
 * the workers still alive). Once a row has gone to the client, or on any other failure, the
 * failure is the client's.
 */
final class RetryingQueryResult
        implements QueryResult
{
    private static final Logger LOG = LoggerFactory.getLogger(RetryingQueryResult.class);

    private final Supplier<QueryResult> restart;
    private volatile QueryResult current;
    private boolean delivered;
    private boolean retried;

    RetryingQueryResult(QueryResult first, Supplier<QueryResult> restart)
    {
        this.current = requireNonNull(first, "first is null");
        this.restart = requireNonNull(restart, "restart is null");
    }

    @Override
    public String queryId()
    {
        return current.queryId();
    }

    @Override
    public Schema schema()
    {
        return current.schema();
    }

    @Override
    public boolean isUpdate()
    {
        return false;
    }

    @Override
    public VectorSchemaRoot nextBatch()
    {
        while (true) {
            try {
                VectorSchemaRoot batch = current.nextBatch();
                delivered |= batch != null;
                return batch;
            }
            catch (OntulException e) {
                if (delivered || retried || e.code() != ErrorCode.WORKER_LOST) {
                    throw e;
                }
                retried = true;
                LOG.warn("Query {} failed before its first row ({}): running it again on the live workers (retry_policy = 'query')", current.queryId(), e.getMessage());
                current.close();
                current = restart.get();
            }
        }
    }

    @Override
    public void cancel()
    {
        current.cancel();
    }

    @Override
    public void close()
    {
        current.close();
    }
}
