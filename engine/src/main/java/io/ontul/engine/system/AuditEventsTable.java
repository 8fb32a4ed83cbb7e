package io.ontul.engine.system;

import static io.ontul.engine.system.SystemColumns.TIMESTAMP;
import static io.ontul.engine.system.SystemColumns.VARCHAR;
import static io.ontul.engine.system.SystemColumns.column;

import java.util.List;

import io.ontul.engine.security.AuditLog;

/**
 * {@code system.audit.events}: the audit log ({@link AuditLog}), oldest first; administrators
 * only. {@code time} is a TIMESTAMP in UTC.
 */
final class AuditEventsTable
{
    static final String SCHEMA = "audit";
    static final String NAME = "events";

    static final SystemColumns<AuditLog.Event> COLUMNS = new SystemColumns<>("system.audit.events", List.of(
            column("time", TIMESTAMP, false, AuditLog.Event::time),
            column("kind", VARCHAR, false, event -> event.kind().name()),
            column("user", VARCHAR, false, AuditLog.Event::user),
            column("address", VARCHAR, true, AuditLog.Event::address),
            column("statement", VARCHAR, true, AuditLog.Event::statement),
            column("outcome", VARCHAR, false, AuditLog.Event::outcome),
            column("detail", VARCHAR, true, AuditLog.Event::detail)));

    private AuditEventsTable() {}
}
