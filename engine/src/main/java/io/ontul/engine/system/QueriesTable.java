package io.ontul.engine.system;

import static io.ontul.engine.system.SystemColumns.BIGINT;
import static io.ontul.engine.system.SystemColumns.TIMESTAMP;
import static io.ontul.engine.system.SystemColumns.VARCHAR;
import static io.ontul.engine.system.SystemColumns.column;

import java.util.List;

import io.ontul.engine.query.QueryInfo;

/**
 * {@code system.runtime.queries}: one row per statement the registry knows, with the columns
 * below. {@code created} is a TIMESTAMP in UTC. A new figure (spilled bytes, say) is one more
 * entry in {@link #COLUMNS}.
 */
final class QueriesTable
{
    static final String SCHEMA = "runtime";
    static final String NAME = "queries";

    static final SystemColumns<QueryInfo> COLUMNS = new SystemColumns<>("system.runtime.queries", List.of(
            column("query_id", VARCHAR, false, QueryInfo::queryId),
            column("user", VARCHAR, false, QueryInfo::user),
            column("state", VARCHAR, false, query -> query.state().name()),
            column("query", VARCHAR, false, QueryInfo::query),
            column("created", TIMESTAMP, false, QueryInfo::created),
            column("elapsed_ms", BIGINT, false, QueryInfo::elapsedMillis),
            column("rows", BIGINT, false, QueryInfo::rows),
            column("bytes", BIGINT, false, QueryInfo::bytes),
            column("peak_memory_bytes", BIGINT, false, QueryInfo::peakMemoryBytes),
            column("spilled_bytes", BIGINT, false, QueryInfo::spilledBytes),
            column("spill_files", BIGINT, false, QueryInfo::spillFiles),
            column("exchanged_bytes", BIGINT, false, QueryInfo::exchangedBytes),
            column("error", VARCHAR, true, query -> query.error().orElse(null))));

    private QueriesTable() {}
}
