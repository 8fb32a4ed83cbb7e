package io.ontul.server.auth;

/** A bearer token that is malformed, forged, expired or names an unknown user; the message says which. */
public final class InvalidTokenException
        extends Exception
{
    public InvalidTokenException(String message)
    {
        super(message);
    }
}
