package io.ontul.server.http;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.BindException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.javalin.Javalin;
import io.javalin.config.RoutesConfig;
import io.javalin.json.JavalinJackson;
import io.ontul.server.tls.ServerCertificate;

/**
 * The HTTP side of the server (REST API, metrics, Admin UI) on Javalin and Jetty: one connector on
 * the configured host and port, HTTPS with the Flight endpoint's certificate when TLS is on, a
 * bounded pool of threads, JSON with Jackson. Every failure becomes a JSON error body
 * ({@link ErrorResponses}).
 */
public final class HttpServer
        implements AutoCloseable
{
    /** Threads that serve requests: a few blocked on long results must not starve the rest. */
    private static final int MAX_THREADS = 32;

    private final Javalin app;
    private final int port;
    private final boolean tls;

    private HttpServer(Javalin app, int port, boolean tls)
    {
        this.app = requireNonNull(app, "app is null");
        this.port = port;
        this.tls = tls;
    }

    /**
     * Starts listening. {@code routes} add their handlers in order (authentication first).
     *
     * @throws IOException when the port is taken or the host cannot be bound
     */
    public static HttpServer start(HttpConfig config, Optional<ServerCertificate> certificate, ObjectMapper json, List<Consumer<RoutesConfig>> routes)
            throws IOException
    {
        requireNonNull(config, "config is null");
        if (!config.enabled()) {
            throw new IllegalArgumentException("the HTTP server is off");
        }
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 4);
        threads.setName("ontul-http");
        threads.setDaemon(true);
        Javalin app = Javalin.create(javalin -> {
            javalin.startup.showJavalinBanner = false;
            javalin.startup.showOldJavalinVersionWarning = false;
            javalin.jsonMapper(new JavalinJackson(json, false));
            javalin.jetty.threadPool = threads;
            javalin.jetty.addConnector((server, httpConfiguration) -> connector(server, httpConfiguration, config, certificate));
            // the Admin UI: plain files from the class path, which may load nothing from elsewhere
            javalin.staticFiles.add(files -> {
                files.hostedPath = "/";
                files.directory = "/io/ontul/server/ui";
                files.location = io.javalin.http.staticfiles.Location.CLASSPATH;
                files.headers = java.util.Map.of(
                        "Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
                        "X-Content-Type-Options", "nosniff",
                        "Referrer-Policy", "no-referrer",
                        "Cache-Control", "no-cache");
            });
            javalin.routes.exception(Exception.class, (error, context) -> ErrorResponses.send(context, error));
            javalin.routes.error(404, context -> {
                // a handler's own 404 (an unknown query) is JSON already; Javalin's for an unknown path is not
                String type = context.res().getContentType();
                if (type == null || !type.startsWith("application/json")) {
                    ErrorResponses.send(context, HttpError.notFound("No such endpoint: " + context.method() + " " + context.path()));
                }
            });
            javalin.routes.error(405, context -> ErrorResponses.send(context, new HttpError(405, "INVALID_ARGUMENT", "Method " + context.method() + " is not allowed on " + context.path())));
            routes.forEach(route -> route.accept(javalin.routes));
        });
        try {
            app.start();
        }
        catch (RuntimeException e) {
            app.stop();
            if (hasCause(e, BindException.class)) {
                throw new IOException("Cannot listen for HTTP on " + config.host() + ":" + config.port() + " (" + HttpConfig.HTTP_PORT
                        + ", --http-port): the port is taken or the address is not this machine's", e);
            }
            throw e;
        }
        ServerConnector connector = (ServerConnector) app.jettyServer().server().getConnectors()[0];
        return new HttpServer(app, connector.getLocalPort(), certificate.isPresent());
    }

    private static ServerConnector connector(org.eclipse.jetty.server.Server server, HttpConfiguration httpConfiguration, HttpConfig config, Optional<ServerCertificate> certificate)
    {
        httpConfiguration.setSendServerVersion(false);
        ServerConnector connector;
        if (certificate.isPresent()) {
            char[] password = java.util.UUID.randomUUID().toString().toCharArray();
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStore(certificate.get().keyStore(password));
            ssl.setKeyStorePassword(new String(password));
            HttpConfiguration https = new HttpConfiguration(httpConfiguration);
            // clients reach servers by IP address too (the certificate names it): no SNI host check
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            secure.setSniHostCheck(false);
            https.addCustomizer(secure);
            connector = new ServerConnector(server, ssl, new HttpConnectionFactory(https));
        }
        else {
            connector = new ServerConnector(server, new HttpConnectionFactory(httpConfiguration));
        }
        connector.setHost(config.host());
        connector.setPort(config.port());
        return connector;
    }

    private static boolean hasCause(Throwable error, Class<? extends Throwable> type)
    {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    /** The routes served, as {@code METHOD path} ({@code GET /v1/jobs/{name}}): what the OpenAPI document must describe. */
    public java.util.Set<String> endpoints()
    {
        java.util.Set<String> endpoints = new java.util.TreeSet<>();
        for (io.javalin.router.ParsedEndpoint parsed : app.unsafe.internalRouter.allHttpHandlers()) {
            String method = parsed.endpoint.method.name();
            if (List.of("GET", "POST", "PUT", "PATCH", "DELETE").contains(method)) {
                endpoints.add(method + " " + parsed.endpoint.path);
            }
        }
        return endpoints;
    }

    public int port()
    {
        return port;
    }

    /** {@code http} or {@code https}. */
    public String scheme()
    {
        return tls ? "https" : "http";
    }

    @Override
    public void close()
    {
        app.stop();
    }
}
