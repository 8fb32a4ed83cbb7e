package io.ontul.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on 127.0.0.1 to a local port, for simulating network failures: {@link #cut} drops
 * every open connection (RST), {@link #refuse} makes new connections fail until allowed again.
 */
public final class TcpRelay
        implements AutoCloseable
{
    private final ServerSocket listener;
    private final int target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean refusing;

    public TcpRelay(int target)
    {
        this.target = target;
        try {
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "tcp-relay-" + target);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port()
    {
        return listener.getLocalPort();
    }

    private void accept()
    {
        try {
            while (true) {
                Socket client = listener.accept();
                if (refusing) {
                    reset(client);
                    continue;
                }
                Socket server;
                try {
                    server = new Socket(InetAddress.getLoopbackAddress(), target);
                }
                catch (IOException e) {
                    reset(client);
                    continue;
                }
                sockets.add(client);
                sockets.add(server);
                relay(client, server);
                relay(server, client);
            }
        }
        catch (IOException e) {
            // closed
        }
    }

    private static void relay(Socket from, Socket to)
    {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream input = from.getInputStream(); OutputStream output = to.getOutputStream()) {
                int read;
                while ((read = input.read(buffer)) >= 0) {
                    output.write(buffer, 0, read);
                }
            }
            catch (IOException e) {
                // cut
            }
        }, "tcp-relay");
        thread.setDaemon(true);
        thread.start();
    }

    /** Drops every open connection, as a network failure would. */
    public void cut()
    {
        for (Socket socket : sockets) {
            reset(socket);
        }
        sockets.clear();
    }

    /** While true, new connections are reset at once (the other side looks down). */
    public void refuse(boolean refuse)
    {
        this.refusing = refuse;
    }

    private static void reset(Socket socket)
    {
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        }
        catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close()
    {
        cut();
        try {
            listener.close();
        }
        catch (IOException e) {
            // closing anyway
        }
    }
}
