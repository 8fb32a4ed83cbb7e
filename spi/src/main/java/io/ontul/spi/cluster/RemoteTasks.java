package io.ontul.spi.cluster;

/**
 * How the coordinator starts a fragment on a worker and reads its output: the transport between
 * the nodes of a cluster, which the server provides over Arrow Flight (a DoGet per worker and
 * fragment, authenticated with the cluster secret) and the engine's scheduler uses.
 */
public interface RemoteTasks
{
    /**
     * Starts {@code request} on the worker at {@code address} and returns its output stream.
     * Failures to reach the worker surface when the stream is read.
     */
    RemoteStream open(String workerId, String address, FragmentRequest request);

    /**
     * What the operators of fragment {@code fragment} of query {@code queryId} did on the worker,
     * in the fragment's plan order (top down, children in order); empty when the worker no
     * longer knows (it keeps the latest fragments only) or cannot be reached.
     */
    default java.util.List<OperatorFigures> statistics(String workerId, String address, String queryId, int fragment)
    {
        return java.util.List.of();
    }
}
