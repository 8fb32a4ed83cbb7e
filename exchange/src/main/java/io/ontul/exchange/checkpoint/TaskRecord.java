package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/** A finished task snapshot as its metadata file records it. */
record TaskRecord(String taskId, List<StateStreamSummary> streams, Map<String, String> metadata)
{
    TaskRecord
    {
        requireNonNull(taskId, "taskId is null");
        streams = List.copyOf(requireNonNull(streams, "streams is null"));
        metadata = Metadata.copyOf(metadata);
    }
}
