package io.ontul.catalog.iceberg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's raw local file system (no {@code .crc} sidecar files, no checksums), with permissions
 * set through {@code java.nio} instead of a forked {@code chmod} process: without Hadoop's native
 * library, every file and directory Hadoop creates costs a process start (about 4 ms), which made
 * writing a partitioned table of many small files slow. What it creates is its owner's only
 * (0600 files, 0700 directories) unless {@link #UMASK} says otherwise.
 */
public final class NioLocalFileSystem
        extends RawLocalFileSystem
{
    /**
     * The mode bits taken away from every file and directory this file system creates, in octal.
     * Hadoop's own {@code fs.permissions.umask-mask} is read by its shaded client as 022 whatever
     * it is set to, so the mask is applied here.
     */
    public static final String UMASK = "ontul.fs.local.umask";

    @Override
    public void setPermission(Path path, FsPermission permission)
            throws IOException
    {
        int umask;
        try {
            umask = Integer.parseInt(getConf() == null ? "077" : getConf().get(UMASK, "077").strip(), 8);
        }
        catch (NumberFormatException e) {
            umask = 077;
        }
        permission = new FsPermission((short) (permission.toShort() & ~umask & 0777));
        String symbolic = permission.getUserAction().SYMBOL + permission.getGroupAction().SYMBOL + permission.getOtherAction().SYMBOL;
        try {
            Files.setPosixFilePermissions(pathToFile(path).toPath(), PosixFilePermissions.fromString(symbolic));
        }
        catch (UnsupportedOperationException e) {
            // not a POSIX file system: the file keeps the permissions it was created with
        }
    }
}
