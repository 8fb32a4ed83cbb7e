package io.ontul.server.auth;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes secrets (signing keys, private keys) readable by the owner only ({@code rw-------}).
 * A file appears complete or not at all: it is written under a temporary name and then moved in.
 */
public final class OwnerOnlyFiles
{
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private OwnerOnlyFiles() {}

    /**
     * Writes {@code content} to {@code file} unless the file exists already.
     *
     * @return true if this call created the file; false if it was there (maybe written meanwhile
     *         by another process), in which case it is left as it is
     */
    public static boolean createIfAbsent(Path file, byte[] content)
            throws IOException
    {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName() + ".", ".tmp");
        try {
            restrictToOwner(temporary);
            Files.write(temporary, content);
            try {
                // a hard link fails if the file exists, so of two servers starting at once the first wins
                Files.createLink(file, temporary);
            }
            catch (FileAlreadyExistsException e) {
                return false;
            }
            catch (UnsupportedOperationException | IOException e) {
                // no hard links on this file system: a plain move also refuses to replace a file
                try {
                    Files.move(temporary, file);
                }
                catch (FileAlreadyExistsException alreadyExists) {
                    return false;
                }
            }
            return true;
        }
        finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** True if someone other than the owner may read or write {@code file}; false when unknown. */
    public static boolean isExposed(Path file)
            throws IOException
    {
        try {
            return !OWNER_ONLY.containsAll(Files.getPosixFilePermissions(file));
        }
        catch (UnsupportedOperationException e) {
            return false;
        }
    }

    private static void restrictToOwner(Path file)
            throws IOException
    {
        try {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        }
        catch (UnsupportedOperationException e) {
            // not a POSIX file system (Windows): the directory's access rules apply
        }
    }
}
