package io.ontul.spi.cluster;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * What a worker needs to run its share of one fragment: the statement as its client sent it
 * (text, user, default catalog and schema, session properties), which fragment of its plan, the
 * fragment's plan as the coordinator cut it, and which share of the splits is this worker's:
 * instances {@code worker * instancesPerWorker} up to {@code (worker + 1) * instancesPerWorker}
 * of {@code workers * instancesPerWorker}; the versions of the tables the coordinator planned with;
 * and whether the worker writes the rows into a table rather than streaming them.
 *
 * @param catalog null when the session has none; likewise {@code schema}
 * @param tableVersions by qualified name ({@code catalog.schema.table}): the version of each table
 *        that has versions ({@link io.ontul.spi.Connector#version}), which the worker reads too
 * @param peers the workers that run the statement's fragments, in the order of their shares: a
 *        worker reads the output of the fragments nested in its own (join build sides) from all of them
 * @param consumer which of the peers asks, when a peer reads a nested fragment's output (the
 *        worker computes its share once and serves every peer from it); -1 when the coordinator asks
 * @param partitionKeys for a peer's request: the columns whose hash decides which peer gets a row
 *        (a repartition between workers; the consumer gets its own partition); empty when every
 *        peer gets every row (a broadcast)
 * @param write null when the worker streams the fragment's rows
 * @param attempt which planning of the statement this is (a retried query plans again): the
 *        shares of two attempts are never confused
 */
public record FragmentRequest(String queryId, String user, String sql, String catalog, String schema, Map<String, String> properties, int fragment, String fingerprint,
        int worker, int workers, int instancesPerWorker, Map<String, String> tableVersions, List<WorkerAddress> peers, int consumer, List<Integer> partitionKeys, FragmentWrite write, int attempt)
{
    public FragmentRequest
    {
        requireNonNull(queryId, "queryId is null");
        requireNonNull(user, "user is null");
        requireNonNull(sql, "sql is null");
        properties = Map.copyOf(requireNonNull(properties, "properties is null"));
        tableVersions = Map.copyOf(requireNonNull(tableVersions, "tableVersions is null"));
        peers = List.copyOf(requireNonNull(peers, "peers is null"));
        partitionKeys = List.copyOf(requireNonNull(partitionKeys, "partitionKeys is null"));
        requireNonNull(fingerprint, "fingerprint is null");
        if (worker < 0 || worker >= workers || instancesPerWorker < 1) {
            throw new IllegalArgumentException("worker " + worker + " of " + workers + " with " + instancesPerWorker + " instances each");
        }
    }

    /** The statement's request without fragment fields, as the coordinator's scheduler fills them in. */
    public static FragmentRequest statement(String queryId, String user, String sql, String catalog, String schema, Map<String, String> properties, int instancesPerWorker,
            int attempt)
    {
        return new FragmentRequest(queryId, user, sql, catalog, schema, properties, 0, "", 0, 1, instancesPerWorker, Map.of(), List.of(), -1, List.of(), null, attempt);
    }

    /**
     * This request for worker {@code worker} of {@code workers}, running fragment {@code fragment}
     * cut as {@code fingerprint} over tables at {@code tableVersions}.
     */
    public FragmentRequest forWorker(int fragment, String fingerprint, int worker, List<WorkerAddress> peers, Map<String, String> tableVersions)
    {
        return new FragmentRequest(queryId, user, sql, catalog, schema, properties, fragment, fingerprint, worker, peers.size(), instancesPerWorker, tableVersions, peers, -1, List.of(), write, attempt);
    }

    /**
     * What this request's worker asks peer {@code producer} for: its share of nested fragment
     * {@code fragment}, cut as {@code fingerprint}, served to this worker as consumer, all of it
     * or, with {@code partitionKeys}, the rows of this worker's partition.
     */
    public FragmentRequest forPeer(int fragment, String fingerprint, int producer, List<Integer> partitionKeys)
    {
        return new FragmentRequest(queryId, user, sql, catalog, schema, properties, fragment, fingerprint, producer, workers, instancesPerWorker, tableVersions, peers, worker,
                partitionKeys, null, attempt);
    }

    /** This request with its rows written by the worker into {@code write}'s table. */
    public FragmentRequest writing(FragmentWrite write)
    {
        return new FragmentRequest(queryId, user, sql, catalog, schema, properties, fragment, fingerprint, worker, workers, instancesPerWorker, tableVersions, peers, consumer,
                partitionKeys, requireNonNull(write, "write is null"), attempt);
    }

    /** This worker's first instance. */
    public int firstInstance()
    {
        return worker * instancesPerWorker;
    }

    /** All instances of the fragment, over all workers. */
    public int instances()
    {
        return workers * instancesPerWorker;
    }
}
