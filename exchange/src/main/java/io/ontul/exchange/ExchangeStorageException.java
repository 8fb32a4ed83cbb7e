package io.ontul.exchange;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The storage under the Exchange Manager failed: a spill or checkpoint file or folder could not
 * be created, written, read or deleted (a full disk, a permission, a file in the way, a storage
 * service that is down). It is not a bug of the engine: the engine reports it to users as an
 * EXTERNAL error that names {@link #location()} and the storage's own reason.
 *
 * <p>Stores still throw it as the {@link UncheckedIOException} their contracts promise.
 */
public final class ExchangeStorageException
        extends UncheckedIOException
{
    private final String location;

    /**
     * @param action what could not be done, as a sentence start ({@code "Cannot write spill file"})
     * @param location the file or folder it was about (or the job whose checkpoints, in which folder)
     */
    public ExchangeStorageException(String action, Object location, IOException cause)
    {
        super(message(action, String.valueOf(location), cause), requireNonNull(cause, "cause is null"));
        this.location = String.valueOf(location);
    }

    /** The file or folder the failure is about. */
    public String location()
    {
        return location;
    }

    private static String message(String action, String location, IOException cause)
    {
        String reason = reason(cause);
        // exchange file errors start with the file name already
        if (reason.startsWith(location)) {
            return action + " " + reason;
        }
        return action + " " + location + ": " + reason;
    }

    /**
     * The storage's reason in words: NIO's exceptions often carry only the path as their message
     * and say what happened by their type.
     */
    static String reason(IOException cause)
    {
        String what = cause instanceof AccessDeniedException ? "permission denied"
                : cause instanceof NoSuchFileException ? "no such file or directory"
                : cause instanceof NotDirectoryException ? "not a directory"
                : cause instanceof FileAlreadyExistsException ? "a file is in the way"
                : null;
        if (cause instanceof FileSystemException fileSystem) {
            String file = fileSystem.getFile();
            String detail = fileSystem.getReason() != null ? fileSystem.getReason() : what;
            if (detail == null) {
                detail = cause.getClass().getSimpleName();
            }
            return file == null ? detail : file + ": " + detail;
        }
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }
}
