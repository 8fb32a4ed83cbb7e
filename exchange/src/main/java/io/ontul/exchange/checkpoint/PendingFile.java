package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;

import io.ontul.exchange.crypto.ChunkedOutputStream;

/**
 * A checkpoint file being written under a temporary name beside its final one. {@link #commit}
 * completes the exchange file, syncs it to disk, and renames it to the final name, so the final
 * name only ever shows a whole file; {@link #abort} removes it. Not thread-safe.
 */
final class PendingFile
{
    private final CheckpointFileSystem files;
    private final Path target;
    private final Path temporary;
    private final FSDataOutputStream disk;
    private final ChunkedOutputStream out;
    private boolean done;

    PendingFile(CheckpointFileSystem files, Path target, Path temporary, FSDataOutputStream disk, ChunkedOutputStream out)
    {
        this.files = requireNonNull(files, "files is null");
        this.target = requireNonNull(target, "target is null");
        this.temporary = requireNonNull(temporary, "temporary is null");
        this.disk = requireNonNull(disk, "disk is null");
        this.out = requireNonNull(out, "out is null");
    }

    /** Where the file's content goes (encrypted and compressed as configured). */
    OutputStream stream()
    {
        return out;
    }

    Path target()
    {
        return target;
    }

    /** Completes, syncs and renames the file; aborts it if any step fails. */
    void commit()
            throws IOException
    {
        if (done) {
            throw new IllegalStateException(target + " is already committed or aborted");
        }
        try {
            out.finish();
            // Object stores cannot sync (and are unfit here anyway: their renames are copies).
            if (disk.hasCapability(StreamCapabilities.HSYNC)) {
                disk.hsync();
            }
            out.close();
            files.rename(temporary, target);
            done = true;
        }
        catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    /** Drops the file; does nothing once committed. */
    void abort()
    {
        if (done) {
            return;
        }
        done = true;
        try {
            out.abort();
        }
        catch (IOException | RuntimeException ignored) {
            // the temporary file is deleted next
        }
        files.deleteQuietly(temporary);
    }
}
