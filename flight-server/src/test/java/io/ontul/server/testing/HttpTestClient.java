package io.ontul.server.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Calls a server's HTTP API over a real socket with the JDK's client, as a user (a bearer token
 * from {@code POST /v1/login}) or without credentials.
 */
public final class HttpTestClient
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;
    private final URI base;

    public HttpTestClient(URI base)
    {
        this(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(), base);
    }

    public HttpTestClient(HttpClient client, URI base)
    {
        this.client = requireNonNull(client, "client is null");
        this.base = requireNonNull(base, "base is null");
    }

    public static HttpTestClient onPort(int port)
    {
        return new HttpTestClient(URI.create("http://127.0.0.1:" + port));
    }

    /** Logs in; fails unless the server returns a token. */
    public String login(String user, String password)
    {
        Response response = send(HttpRequest.newBuilder(base.resolve("/v1/login")).POST(HttpRequest.BodyPublishers.noBody()).header("Authorization", basic(user, password)));
        if (response.status() != 200) {
            throw new AssertionError("login of " + user + " failed: " + response);
        }
        return response.json().get("token").asText();
    }

    public static String basic(String user, String password)
    {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
    }

    public static String bearer(String token)
    {
        return "Bearer " + token;
    }

    public Response get(String path, Optional<String> authorization)
    {
        return send(authorized(HttpRequest.newBuilder(base.resolve(path)).GET(), authorization));
    }

    public Response post(String path, Optional<String> authorization, String json)
    {
        return send(authorized(HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.ofString(json)).header("Content-Type", "application/json"), authorization));
    }

    public Response delete(String path, Optional<String> authorization)
    {
        return send(authorized(HttpRequest.newBuilder(base.resolve(path)).DELETE(), authorization));
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder request, Optional<String> authorization)
    {
        authorization.ifPresent(value -> request.header("Authorization", value));
        return request;
    }

    public Response send(HttpRequest.Builder request)
    {
        try {
            HttpResponse<byte[]> response = client.send(request.timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Response(response.statusCode(), response.headers(), response.body());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    public record Response(int status, java.net.http.HttpHeaders headers, byte[] body)
    {
        public String text()
        {
            return new String(body, UTF_8);
        }

        public JsonNode json()
        {
            try {
                return JSON.readTree(body);
            }
            catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + text(), e);
            }
        }

        /** The message of a JSON error body. */
        public String errorMessage()
        {
            return json().path("error").path("message").asText();
        }

        public Optional<String> header(String name)
        {
            return headers.firstValue(name);
        }

        @Override
        public String toString()
        {
            return status + " " + text();
        }
    }
}
