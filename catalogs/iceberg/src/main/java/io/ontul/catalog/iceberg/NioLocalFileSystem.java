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
 * writing a partitioned table of many small files slow.
 */
public final class NioLocalFileSystem
        extends RawLocalFileSystem
{
    @Override
    public void setPermission(Path path, FsPermission permission)
            throws IOException
    {
        String symbolic = permission.getUserAction().SYMBOL + permission.getGroupAction().SYMBOL + permission.getOtherAction().SYMBOL;
        try {
            Files.setPosixFilePermissions(pathToFile(path).toPath(), PosixFilePermissions.fromString(symbolic));
        }
        catch (UnsupportedOperationException e) {
            // not a POSIX file system: the file keeps the permissions it was created with
        }
    }
}
