package io.ontul.engine.security;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Who did what that matters for security: logins (ok and failed, with the client's address),
 * DDL, GRANT and REVOKE, denied attempts and streaming job control, as JSON lines in
 * {@code DATA_DIR/audit/audit-YYYY-MM-DD.jsonl} (a file per UTC day), read back as the table
 * {@code system.audit.events} (administrators only). Statements are recorded as
 * {@code system.runtime.queries} shows them: passwords as {@code '***'}. Thread-safe.
 */
public final class AuditLog
{
    /** What happened. */
    public enum Kind
    {
        LOGIN, LOGIN_FAILED, DDL, GRANT, DENIED, STREAMING_JOB
    }

    /**
     * One entry; {@code address}, {@code statement} and {@code detail} may be null.
     *
     * @param outcome OK, FAILED or DENIED
     */
    public record Event(Instant time, Kind kind, String user, String address, String statement, String outcome, String detail)
    {
        public Event
        {
            requireNonNull(time, "time is null");
            requireNonNull(kind, "kind is null");
            requireNonNull(user, "user is null");
            requireNonNull(outcome, "outcome is null");
        }
    }

    /** Records nothing: an engine without a data directory or without users. */
    public static final AuditLog NONE = new AuditLog(null);

    public static final String DIRECTORY = "audit";

    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path directory;

    private AuditLog(Path directory)
    {
        this.directory = directory;
    }

    /** The audit log of a data directory ({@code DATA_DIR/audit}), created if needed. */
    public static AuditLog in(Path dataDirectory)
    {
        Path directory = dataDirectory.resolve(DIRECTORY);
        try {
            Files.createDirectories(directory);
        }
        catch (IOException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Cannot create the audit directory " + directory + ": " + e.getMessage(), e);
        }
        return new AuditLog(directory);
    }

    public Optional<Path> directory()
    {
        return Optional.ofNullable(directory);
    }

    /**
     * Appends {@code event} to the file of its day. A failure to write is logged, not thrown: the
     * statement or login it records has happened either way.
     */
    public void record(Event event)
    {
        if (directory == null) {
            return;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("time", event.time().toString());
        line.put("kind", event.kind().name());
        line.put("user", event.user());
        line.put("address", event.address());
        line.put("statement", event.statement());
        line.put("outcome", event.outcome());
        line.put("detail", event.detail());
        Path file = directory.resolve(fileName(LocalDate.ofInstant(event.time(), ZoneOffset.UTC)));
        synchronized (this) {
            try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE)) {
                writer.write(JSON.writeValueAsString(line));
                writer.write('\n');
            }
            catch (IOException e) {
                LOG.error("Cannot write the audit event {} of user '{}' to {}: {}", event.kind(), event.user(), file, e.toString());
            }
        }
    }

    /** Every event recorded, oldest first; a line cut short by a crash is skipped. */
    public List<Event> events()
    {
        List<Event> events = new ArrayList<>();
        if (directory == null) {
            return events;
        }
        TreeSet<Path> files = new TreeSet<>();
        synchronized (this) {
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "audit-*.jsonl")) {
                stream.forEach(files::add);
            }
            catch (IOException e) {
                throw new UncheckedIOException("Cannot list the audit directory " + directory, e);
            }
            for (Path file : files) {
                try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    String text;
                    while ((text = reader.readLine()) != null) {
                        parse(text).ifPresent(events::add);
                    }
                }
                catch (IOException e) {
                    throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Cannot read the audit file " + file + ": " + e.getMessage(), e);
                }
            }
        }
        return events;
    }

    static String fileName(LocalDate day)
    {
        return "audit-" + day + ".jsonl";
    }

    private static Optional<Event> parse(String text)
    {
        try {
            JsonNode node = JSON.readTree(text);
            return Optional.of(new Event(Instant.parse(node.get("time").asText()), Kind.valueOf(node.get("kind").asText()), node.get("user").asText(),
                    string(node, "address"), string(node, "statement"), node.get("outcome").asText(), string(node, "detail")));
        }
        catch (JsonProcessingException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String string(JsonNode node, String field)
    {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
