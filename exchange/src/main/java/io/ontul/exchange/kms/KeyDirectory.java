package io.ontul.exchange.kms;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directory that holds master key material: created owner-only ({@code rwx------}), files
 * created owner-only ({@code rw-------}) and exactly once, so a version can never be overwritten.
 */
final class KeyDirectory
{
    private static final Logger LOG = LoggerFactory.getLogger(KeyDirectory.class);

    static final Set<PosixFilePermission> DIRECTORY_PERMISSIONS = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-------");

    private final Path path;
    private final boolean posix;
    private final SecureRandom random = new SecureRandom();

    KeyDirectory(Path path)
            throws IOException
    {
        this.path = requireNonNull(path, "path is null").toAbsolutePath();
        if (Files.exists(this.path) && !Files.isDirectory(this.path)) {
            throw new KeyManagementException("Key directory " + this.path + " is not a directory");
        }
        Path existing = this.path;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        this.posix = existing != null && Files.getFileStore(existing).supportsFileAttributeView("posix");
        if (Files.isDirectory(this.path)) {
            warnIfOthersCanAccess(this.path);
        }
        else {
            create();
        }
    }

    Path path()
    {
        return path;
    }

    /** The files whose names match the pattern, by the version number its first group captures. */
    TreeMap<Integer, Path> versionedFiles(Pattern namePattern)
            throws IOException
    {
        TreeMap<Integer, Path> files = new TreeMap<>();
        try (Stream<Path> entries = Files.list(path)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                Matcher matcher = namePattern.matcher(entry.getFileName().toString());
                if (matcher.matches()) {
                    files.put(Integer.parseInt(matcher.group(1)), entry);
                }
            }
        }
        catch (NumberFormatException e) {
            throw new KeyManagementException("Key directory " + path + " holds a key file with an invalid version number", e);
        }
        return files;
    }

    byte[] read(Path file)
            throws IOException
    {
        try {
            warnIfOthersCanAccess(file);
            return Files.readAllBytes(file);
        }
        catch (NoSuchFileException e) {
            throw new KeyManagementException("Master key file " + file + " is missing: files encrypted under its version cannot be read", e);
        }
    }

    /**
     * Creates {@code fileName} owner-only with the given content, durably, and fails if it
     * already exists.
     */
    void createNewFile(String fileName, byte[] content)
            throws IOException
    {
        Path target = path.resolve(fileName);
        Path temporary = path.resolve("." + fileName + "." + HexFormat.of().formatHex(randomBytes(8)) + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), fileAttributes(FILE_PERMISSIONS))) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            if (posix) {
                // The permissions given at creation pass through the umask: set them exactly.
                Files.setPosixFilePermissions(temporary, FILE_PERMISSIONS);
            }
            publish(temporary, target);
        }
        catch (FileAlreadyExistsException e) {
            throw new KeyManagementException("Key file " + target + " already exists (did another rotation run at the same time?); retry", e);
        }
        finally {
            Files.deleteIfExists(temporary);
        }
        syncDirectory();
    }

    private void publish(Path temporary, Path target)
            throws IOException
    {
        try {
            // A hard link appears atomically and fails if the target exists; rename would replace it.
            Files.createLink(target, temporary);
        }
        catch (UnsupportedOperationException e) {
            Files.move(temporary, target);
        }
    }

    private void create()
            throws IOException
    {
        Path parent = path.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.createDirectory(path, fileAttributes(DIRECTORY_PERMISSIONS));
        if (posix) {
            Files.setPosixFilePermissions(path, DIRECTORY_PERMISSIONS);
        }
    }

    private void syncDirectory()
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            channel.force(true);
        }
        catch (IOException e) {
            // Some platforms cannot open or sync a directory; the key file itself is synced.
            LOG.debug("Cannot sync key directory {}", path, e);
        }
    }

    private void warnIfOthersCanAccess(Path file)
            throws IOException
    {
        if (!posix) {
            return;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        List<PosixFilePermission> others = new ArrayList<>(permissions);
        others.retainAll(Set.of(
                PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE));
        if (!others.isEmpty()) {
            String wanted = Files.isDirectory(file) ? "700" : "600";
            LOG.warn("Master key material {} is accessible to other users ({}): run chmod {} {}",
                    file, PosixFilePermissions.toString(permissions), wanted, file);
        }
    }

    private FileAttribute<?>[] fileAttributes(Set<PosixFilePermission> permissions)
    {
        if (!posix) {
            return new FileAttribute<?>[0];
        }
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)};
    }

    byte[] randomBytes(int length)
    {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
