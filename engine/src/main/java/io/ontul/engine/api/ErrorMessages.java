package io.ontul.engine.api;

/** How the engine words error messages, for the fronts that pass them on to clients. */
public final class ErrorMessages
{
    private ErrorMessages() {}

    /** The first {@code max} characters of {@code text}, saying how long it was when cut. */
    public static String abbreviate(String text, int max)
    {
        return text.length() <= max ? text : text.substring(0, max) + "... (" + text.length() + " characters in all)";
    }
}
