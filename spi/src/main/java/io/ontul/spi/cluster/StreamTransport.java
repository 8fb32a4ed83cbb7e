package io.ontul.spi.cluster;

import java.util.function.Consumer;

/**
 * How the tasks of a streaming job talk across the nodes of a cluster, which the server provides
 * over Arrow Flight: the coordinator holds one session per worker and attempt (commands one
 * way, reports the other; the attempt's tasks on a worker end when its session does), and a
 * source task sends to a window task on another worker over a channel of its own.
 */
public interface StreamTransport
{
    /**
     * Coordinator: opens the session of one attempt with {@code worker}, which prepares its tasks
     * and reports {@link StreamReport.Kind#PREPARED}. {@code reports} gets the worker's reports in
     * order, from a thread of the transport; {@code ended} is called once when the session ends,
     * with null when the worker completed it, or the failure (WORKER_LOST naming the worker when
     * it cannot be reached).
     */
    StreamSession openSession(WorkerAddress worker, StreamAttemptRequest request, Consumer<StreamReport> reports, Consumer<RuntimeException> ended);

    /** Worker: opens a channel from one of its tasks to a task on {@code worker}. */
    ChannelSender openChannel(WorkerAddress worker, ChannelTarget target);

    /** A worker's end of one attempt's session: the coordinator's commands go to its tasks. */
    interface WorkerSession
            extends AutoCloseable
    {
        void command(StreamCommand command);

        /** The session ended (the coordinator ended the attempt, or is gone): the tasks stop. */
        @Override
        void close();
    }

    /** The coordinator's end of one attempt's session with one worker. */
    interface StreamSession
            extends AutoCloseable
    {
        void send(StreamCommand command);

        /** Ends the session: the worker stops the attempt's tasks. */
        @Override
        void close();
    }
}
