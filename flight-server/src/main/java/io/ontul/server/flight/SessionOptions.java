package io.ontul.server.flight;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.apache.arrow.flight.GetSessionOptionsResult;
import org.apache.arrow.flight.NoOpSessionOptionValueVisitor;
import org.apache.arrow.flight.SessionOptionValue;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.SetSessionOptionsResult.ErrorValue;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;
import io.ontul.engine.execution.SessionProperties;
import io.ontul.spi.Connector;
import io.ontul.spi.OntulException;

/**
 * Flight's SetSessionOptions and GetSessionOptions on a connection's engine session: the same
 * state USE and SET SESSION change. Options are {@value #CATALOG}, {@value #SCHEMA} (the
 * defaults for unqualified names) and every engine session property, validated by
 * {@link SessionProperties}. Values may be strings or numbers; a valueless option unsets it.
 * Each option succeeds or fails on its own: an unknown name is INVALID_NAME, a value the
 * option does not accept (an unknown catalog, a bad memory size) is INVALID_VALUE.
 */
public final class SessionOptions
{
    public static final String CATALOG = "catalog";
    public static final String SCHEMA = "schema";
    /** The prefix of {@link SessionProperties#validate}'s message for a name it does not know. */
    private static final String UNKNOWN_PROPERTY = "Unknown session property";

    private final Engine engine;

    public SessionOptions(Engine engine)
    {
        this.engine = requireNonNull(engine, "engine is null");
    }

    public SetSessionOptionsResult set(Session session, Map<String, SessionOptionValue> options)
    {
        Map<String, SetSessionOptionsResult.Error> errors = new HashMap<>();
        // the catalog first, so that a schema given with it is checked against it
        Map<String, SessionOptionValue> ordered = new LinkedHashMap<>();
        if (options.containsKey(CATALOG)) {
            ordered.put(CATALOG, options.get(CATALOG));
        }
        ordered.putAll(options);
        ordered.forEach((name, value) -> {
            ErrorValue error = set(session, name, text(value));
            if (error != null) {
                errors.put(name, new SetSessionOptionsResult.Error(error));
            }
        });
        return new SetSessionOptionsResult(errors);
    }

    /** The options this session has set: catalog, schema and session properties. */
    public GetSessionOptionsResult get(Session session)
    {
        Map<String, SessionOptionValue> options = new HashMap<>();
        if (session.catalog() != null) {
            options.put(CATALOG, SessionOptionValueFactory.makeSessionOptionValue(session.catalog()));
        }
        if (session.schema() != null) {
            options.put(SCHEMA, SessionOptionValueFactory.makeSessionOptionValue(session.schema()));
        }
        session.properties().forEach((name, value) -> options.put(name, SessionOptionValueFactory.makeSessionOptionValue(value)));
        return new GetSessionOptionsResult(options);
    }

    /** Sets or (value null) unsets one option; returns the error, or null when it was set. */
    private ErrorValue set(Session session, String name, OptionText value)
    {
        if (value.invalid()) {
            return isProperty(name) || name.equals(CATALOG) || name.equals(SCHEMA) ? ErrorValue.INVALID_VALUE : ErrorValue.INVALID_NAME;
        }
        String text = value.text();
        if (name.equals(CATALOG)) {
            if (text != null && engine.catalogs().get(text).isEmpty()) {
                return ErrorValue.INVALID_VALUE;
            }
            session.setCatalog(text);
            return null;
        }
        if (name.equals(SCHEMA)) {
            if (text != null && session.catalog() != null && !schemaExists(session.catalog(), text)) {
                return ErrorValue.INVALID_VALUE;
            }
            session.setSchema(text);
            return null;
        }
        if (text == null) {
            if (!isProperty(name)) {
                return ErrorValue.INVALID_NAME;
            }
            // property keys are lower case, as SessionProperties.validate returns them
            session.properties().remove(name.toLowerCase(Locale.ROOT));
            return null;
        }
        try {
            session.properties().put(SessionProperties.validate(name, text, session), text);
            return null;
        }
        catch (OntulException e) {
            if (e.code() == io.ontul.spi.ErrorCode.PERMISSION_DENIED) {
                throw e;
            }
            return isUnknownName(e) ? ErrorValue.INVALID_NAME : ErrorValue.INVALID_VALUE;
        }
    }

    private boolean schemaExists(String catalog, String schema)
    {
        Connector connector = engine.catalogs().get(catalog).orElse(null);
        return connector != null
                && (connector.metadata().listSchemas().contains(schema) || !connector.metadata().listTables(schema).isEmpty());
    }

    /** Whether the engine knows a session property of this name, whatever value it takes. */
    private static boolean isProperty(String name)
    {
        try {
            SessionProperties.validate(name, "0");
            return true;
        }
        catch (OntulException e) {
            return !isUnknownName(e);
        }
    }

    private static boolean isUnknownName(OntulException error)
    {
        return error.getMessage() != null && error.getMessage().startsWith(UNKNOWN_PROPERTY);
    }

    /** An option's value as SQL text: null to unset, invalid for a list of strings. */
    private record OptionText(String text, boolean invalid) {}

    private static OptionText text(SessionOptionValue value)
    {
        if (value == null || value.isEmpty()) {
            return new OptionText(null, false);
        }
        return value.acceptVisitor(new NoOpSessionOptionValueVisitor<>()
        {
            @Override
            public OptionText visit(String text)
            {
                return new OptionText(text, false);
            }

            @Override
            public OptionText visit(boolean flag)
            {
                return new OptionText(String.valueOf(flag), false);
            }

            @Override
            public OptionText visit(long number)
            {
                return new OptionText(String.valueOf(number), false);
            }

            @Override
            public OptionText visit(double number)
            {
                return new OptionText(String.valueOf(number), false);
            }

            @Override
            public OptionText visit(String[] texts)
            {
                return new OptionText(null, true);
            }

            @Override
            public OptionText visit(Void empty)
            {
                return new OptionText(null, false);
            }
        });
    }
}
