package io.ontul.server.flight;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.arrow.flight.GetSessionOptionsResult;
import org.apache.arrow.flight.NoOpSessionOptionValueVisitor;
import org.apache.arrow.flight.SessionOptionValue;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.SetSessionOptionsResult.ErrorValue;

import io.ontul.engine.api.Session;
import io.ontul.spi.OntulException;

/**
 * Flight's SetSessionOptions and GetSessionOptions on a connection's engine session: the same
 * state USE and SET SESSION change. Options are {@value #CATALOG}, {@value #SCHEMA} (the
 * defaults for unqualified names) and every engine session property, validated as SET SESSION
 * validates it ({@link Session#setProperty}). Values may be strings or numbers; a valueless
 * option unsets it.
 * Each option succeeds or fails on its own: an unknown name is INVALID_NAME, a value the
 * option does not accept (an unknown catalog, a bad memory size) is INVALID_VALUE.
 */
public final class SessionOptions
{
    public static final String CATALOG = "catalog";
    public static final String SCHEMA = "schema";

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
            return Session.isProperty(name) || name.equals(CATALOG) || name.equals(SCHEMA) ? ErrorValue.INVALID_VALUE : ErrorValue.INVALID_NAME;
        }
        String text = value.text();
        if (name.equals(CATALOG)) {
            if (text != null && !session.catalogs().catalogExists(text)) {
                return ErrorValue.INVALID_VALUE;
            }
            session.setCatalog(text);
            return null;
        }
        if (name.equals(SCHEMA)) {
            if (text != null && session.catalog() != null && !session.catalogs().schemaExists(session.catalog(), text)) {
                return ErrorValue.INVALID_VALUE;
            }
            session.setSchema(text);
            return null;
        }
        if (!Session.isProperty(name)) {
            return ErrorValue.INVALID_NAME;
        }
        if (text == null) {
            session.resetProperty(name);
            return null;
        }
        try {
            session.setProperty(name, text);
            return null;
        }
        catch (OntulException e) {
            if (e.code() == io.ontul.spi.ErrorCode.PERMISSION_DENIED) {
                throw e;
            }
            return ErrorValue.INVALID_VALUE;
        }
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
