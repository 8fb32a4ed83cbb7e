package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * The users and their password hashes, in {@code DATA_DIR/users.properties} (user = hash),
 * readable by the owner only. Writes replace the file atomically, so a crash never leaves it
 * half-written. Passwords themselves are never stored.
 */
public final class UserStore
{
    public static final String FILE_NAME = "users.properties";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path file;
    private final PasswordHasher hasher;
    private final Map<String, String> hashes = new TreeMap<>();

    private UserStore(Path file, PasswordHasher hasher)
    {
        this.file = requireNonNull(file, "file is null");
        this.hasher = requireNonNull(hasher, "hasher is null");
    }

    public static UserStore open(Path dataDirectory, PasswordHasher hasher)
    {
        UserStore store = new UserStore(dataDirectory.resolve(FILE_NAME), hasher);
        store.load();
        return store;
    }

    private void load()
    {
        if (!Files.exists(file)) {
            return;
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        properties.stringPropertyNames().forEach(user -> hashes.put(user, properties.getProperty(user)));
    }

    public synchronized boolean exists(String user)
    {
        return hashes.containsKey(user);
    }

    public boolean verify(String user, String password)
    {
        Optional<String> hash;
        synchronized (this) {
            hash = Optional.ofNullable(hashes.get(user));
        }
        return hash.isPresent() && hasher.verify(password, hash.get());
    }

    public synchronized void setPassword(String user, String password)
    {
        hashes.put(user, hasher.hash(password));
        save();
    }

    /** Adds {@code user}; returns false, changing nothing, when the user exists. */
    public boolean create(String user, String password)
    {
        String hash = hasher.hash(password);
        synchronized (this) {
            if (hashes.putIfAbsent(user, hash) != null) {
                return false;
            }
            saveOrRestore(user, null);
            return true;
        }
    }

    /** Replaces the password of {@code user}; returns false, changing nothing, when there is no such user. */
    public boolean replacePassword(String user, String password)
    {
        String hash = hasher.hash(password);
        synchronized (this) {
            String previous = hashes.get(user);
            if (previous == null) {
                return false;
            }
            hashes.put(user, hash);
            saveOrRestore(user, previous);
            return true;
        }
    }

    /** Removes {@code user}; returns false when there is no such user. */
    public synchronized boolean drop(String user)
    {
        String previous = hashes.remove(user);
        if (previous == null) {
            return false;
        }
        saveOrRestore(user, previous);
        return true;
    }

    /** The user names, sorted. */
    public synchronized java.util.List<String> users()
    {
        return java.util.List.copyOf(hashes.keySet());
    }

    /** Saves; when that fails, puts back the user's previous hash (null: no user) and rethrows. */
    private void saveOrRestore(String user, String previousHash)
    {
        try {
            save();
        }
        catch (RuntimeException e) {
            if (previousHash == null) {
                hashes.remove(user);
            }
            else {
                hashes.put(user, previousHash);
            }
            throw e;
        }
    }

    private void save()
    {
        Properties properties = new Properties();
        properties.putAll(hashes);
        try {
            Files.createDirectories(file.getParent());
            Path temporary = file.resolveSibling(FILE_NAME + ".tmp");
            Files.deleteIfExists(temporary);
            createOwnerOnly(temporary);
            try (Writer writer = Files.newBufferedWriter(temporary)) {
                properties.store(writer, "Ontul users: PBKDF2 password hashes, never passwords");
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    private static void createOwnerOnly(Path path)
            throws IOException
    {
        try {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        }
        catch (UnsupportedOperationException e) {
            // not a POSIX file system (Windows): the directory's access rules apply
            Files.createFile(path);
        }    }
}
