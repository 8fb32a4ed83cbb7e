package io.ontul.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The disk's raw rate, measured with plain {@link FileChannel}s in 1 MiB blocks of random bytes:
 * a write that ends with {@code force(true)}, and reads. {@link #dropFromCache} asks the kernel to
 * forget a file's cached pages ({@code dd iflag=nocache count=0}, a POSIX_FADV_DONTNEED), so that
 * the next read comes from the disk; it works only on pages already written back.
 */
final class DiskRate
{
    private static final int BLOCK = 1 << 20;

    private DiskRate() {}

    /** Writes {@code bytes} (rounded up to a block) and syncs them; returns the nanoseconds taken. */
    static long write(Path file, long bytes)
    {
        ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
        byte[] random = new byte[BLOCK];
        new Random(42).nextBytes(random);
        block.put(random);
        long start = System.nanoTime();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            for (long written = 0; written < bytes; written += BLOCK) {
                block.clear();
                while (block.hasRemaining()) {
                    channel.write(block);
                }
            }
            channel.force(true);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return System.nanoTime() - start;
    }

    /** Reads the whole file; returns the nanoseconds taken. */
    static long read(Path file)
    {
        ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
        long start = System.nanoTime();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (channel.read(block) >= 0) {
                block.clear();
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return System.nanoTime() - start;
    }

    /** Drops the cached pages of every regular file under {@code root}; false if that failed. */
    static boolean dropFromCache(Path root)
    {
        try (Stream<Path> paths = Files.walk(root)) {
            boolean dropped = true;
            for (Path file : paths.filter(Files::isRegularFile).toList()) {
                Process process = new ProcessBuilder(List.of("dd", "if=" + file, "iflag=nocache", "count=0", "status=none"))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                dropped &= process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
            }
            return dropped;
        }
        catch (IOException e) {
            return false;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    /** Bytes of the regular files under {@code root}. */
    static long size(Path root)
    {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile).mapToLong(path -> {
                try {
                    return Files.size(path);
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
