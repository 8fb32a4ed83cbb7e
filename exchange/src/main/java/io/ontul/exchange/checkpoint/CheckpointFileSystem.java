package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

import io.ontul.exchange.crypto.ChunkedInputStream;
import io.ontul.exchange.crypto.ExchangeStreamFactory;

/**
 * The checkpoint store's only door to storage: a Hadoop {@link FileSystem} of its own (not the
 * JVM-wide cached one, so closing the store closes nothing of anyone else's), with every file
 * going through the {@link ExchangeStreamFactory}.
 *
 * <p>For {@code file://} Hadoop hands out a {@link ChecksumFileSystem} that writes a {@code .crc}
 * file beside each file and cannot fsync. Its raw file system is used instead: exchange files
 * carry their own per-chunk checksums or authentication tags, {@code hsync} reaches the disk,
 * and a rename is one {@code rename(2)}. Because Hadoop cannot fsync a folder, folders of the
 * local file system are synced here so that a rename survives a power cut.
 */
final class CheckpointFileSystem
        implements Closeable
{
    private static final Pattern URI_WITH_SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:.*");
    private static final int BUFFER_SIZE = 64 * 1024;

    private final FileSystem owned;
    private final FileSystem fileSystem;
    private final Optional<RawLocalFileSystem> local;
    private final ExchangeStreamFactory streams;

    private CheckpointFileSystem(FileSystem owned, ExchangeStreamFactory streams)
    {
        this.owned = requireNonNull(owned, "owned is null");
        this.streams = requireNonNull(streams, "streams is null");
        this.fileSystem = owned instanceof ChecksumFileSystem checksummed ? checksummed.getRawFileSystem() : owned;
        this.local = fileSystem instanceof RawLocalFileSystem raw ? Optional.of(raw) : Optional.empty();
    }

    /** Opens a file system of its own for {@code uri}. */
    static CheckpointFileSystem open(URI uri, Map<String, String> hadoopProperties, ExchangeStreamFactory streams)
            throws IOException
    {
        Configuration configuration = new Configuration();
        hadoopProperties.forEach(configuration::set);
        return new CheckpointFileSystem(FileSystem.newInstance(uri, configuration), streams);
    }

    /** A path without a scheme is a local path, relative ones against the working directory. */
    static URI toUri(String baseDirectory)
    {
        if (URI_WITH_SCHEME.matcher(baseDirectory).matches()) {
            return new Path(baseDirectory).toUri();
        }
        return java.nio.file.Path.of(baseDirectory).toAbsolutePath().normalize().toUri();
    }

    Path qualify(URI uri)
    {
        return fileSystem.makeQualified(new Path(uri));
    }

    /** Starts writing {@code file} under a temporary name in its folder; see {@link PendingFile}. */
    PendingFile create(Path file)
            throws IOException
    {
        Path temporary = new Path(file.getParent(), "." + file.getName() + "." + UUID.randomUUID() + ".tmp");
        FSDataOutputStream out = fileSystem.create(temporary, false, BUFFER_SIZE);
        try {
            return new PendingFile(this, file, temporary, out, streams.newOutputStream(out, temporary.toString()));
        }
        catch (IOException | RuntimeException e) {
            out.close();
            deleteQuietly(temporary);
            throw e;
        }
    }

    /** Opens the exchange file {@code file}; a missing file is reported by name. */
    ChunkedInputStream open(Path file)
            throws IOException
    {
        InputStream in;
        try {
            in = new BufferedInputStream(fileSystem.open(file, BUFFER_SIZE), BUFFER_SIZE);
        }
        catch (FileNotFoundException e) {
            throw new FileNotFoundException(file + ": file is missing");
        }
        try {
            return streams.newInputStream(in, file.toString());
        }
        catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    boolean exists(Path path)
            throws IOException
    {
        return fileSystem.exists(path);
    }

    /** The entries of {@code folder}; none if it does not exist. */
    List<FileStatus> list(Path folder)
            throws IOException
    {
        try {
            return Arrays.asList(fileSystem.listStatus(folder));
        }
        catch (FileNotFoundException e) {
            return List.of();
        }
    }

    void createFolder(Path folder)
            throws IOException
    {
        if (!fileSystem.mkdirs(folder)) {
            throw new IOException("Cannot create folder " + folder);
        }
    }

    /**
     * Renames {@code source} to {@code target}, which must not exist. Atomic on HDFS and local
     * disks. HDFS refuses an existing target itself; the local file system would replace it, so
     * the check before the rename is what protects a file there from a writer racing for the
     * same name (which the store's protocol rules out).
     */
    void rename(Path source, Path target)
            throws IOException
    {
        if (fileSystem.exists(target)) {
            throw new IOException("Cannot rename " + source + " to " + target + ": the target exists");
        }
        if (!fileSystem.rename(source, target)) {
            throw new IOException("Cannot rename " + source + " to " + target);
        }
    }

    /** Deletes {@code path}, a folder with all it holds; true if something was deleted. */
    boolean delete(Path path)
            throws IOException
    {
        return fileSystem.delete(path, true);
    }

    void deleteQuietly(Path path)
    {
        try {
            fileSystem.delete(path, true);
        }
        catch (IOException | RuntimeException ignored) {
            // left for the next clean-up
        }
    }

    /** Makes the entries of {@code folder} (files renamed or created in it) durable. */
    void syncFolder(Path folder)
            throws IOException
    {
        if (local.isEmpty()) {
            // HDFS makes a rename durable in the NameNode's edit log before it returns.
            return;
        }
        java.nio.file.Path localFolder = local.get().pathToFile(folder).toPath();
        try (FileChannel channel = FileChannel.open(localFolder, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    @Override
    public void close()
            throws IOException
    {
        owned.close();
    }
}
