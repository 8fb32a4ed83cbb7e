package io.ontul.server.cli;

/** A command line the command cannot run; the message says what is wrong and how to fix it. */
public final class UsageException
        extends Exception
{
    public UsageException(String message)
    {
        super(message);
    }
}
