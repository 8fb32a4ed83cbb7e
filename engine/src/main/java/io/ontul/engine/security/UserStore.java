package io.ontul.engine.security;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.metadata.StoredUsers;

/**
 * The users and their password hashes, in the metadata store ({@code ontul_users}), so servers
 * sharing a metadata store share their users. Passwords themselves are never stored: only salted
 * PBKDF2 hashes ({@link PasswordHasher}). Each change is one transaction of the store.
 * <p>
 * Earlier versions kept the hashes in {@code DATA_DIR/users.properties}: that file is imported
 * once (users the store does not know yet) and renamed {@code users.properties.imported}.
 */
public final class UserStore
{
    /** The file earlier versions kept the users in. */
    public static final String LEGACY_FILE_NAME = "users.properties";

    private static final Logger log = LoggerFactory.getLogger(UserStore.class);

    /** How long a successful password check is remembered ({@link VerifiedPasswordCache}). */
    static final java.time.Duration VERIFIED_PASSWORD_TTL = java.time.Duration.ofMinutes(5);
    static final int VERIFIED_PASSWORD_USERS = 10_000;

    private final StoredUsers users;
    private final PasswordHasher hasher;
    private final VerifiedPasswordCache verified = new VerifiedPasswordCache(VERIFIED_PASSWORD_USERS, VERIFIED_PASSWORD_TTL, System::nanoTime);

    private UserStore(StoredUsers users, PasswordHasher hasher)
    {
        this.users = requireNonNull(users, "users is null");
        this.hasher = requireNonNull(hasher, "hasher is null");
    }

    /**
     * The users of the metadata store ({@code MetadataStore.users()}), after importing a legacy file
     * of {@code dataDirectory}, if there is one.
     */
    public static UserStore open(StoredUsers users, Optional<Path> dataDirectory, PasswordHasher hasher)
    {
        UserStore store = new UserStore(users, hasher);
        dataDirectory.ifPresent(directory -> store.importLegacyFile(directory.resolve(LEGACY_FILE_NAME)));
        return store;
    }

    private void importLegacyFile(Path file)
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
        int imported = 0;
        for (String user : properties.stringPropertyNames()) {
            if (users.create(user, properties.getProperty(user))) {
                imported++;
            }
        }
        try {
            Files.move(file, file.resolveSibling(LEGACY_FILE_NAME + ".imported"), StandardCopyOption.REPLACE_EXISTING);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot rename " + file + " after importing its users", e);
        }
        log.info("Imported {} users from {} into the metadata store", imported, file);
    }

    public boolean exists(String user)
    {
        return users.hash(user).isPresent();
    }

    /**
     * Whether {@code password} is the password of {@code user}. A user that does not exist costs
     * the same PBKDF2 derivation as one that does; a password verified in the last
     * {@link #VERIFIED_PASSWORD_TTL} (and not changed since) costs none.
     */
    public boolean verify(String user, String password)
    {
        Optional<String> hash = users.hash(user);
        if (hash.isEmpty()) {
            hasher.verify(password, hasher.unknownUserHash());
            return false;
        }
        if (verified.contains(user, hash.get(), password)) {
            return true;
        }
        boolean matches = hasher.verify(password, hash.get());
        if (matches) {
            verified.remember(user, hash.get(), password);
        }
        return matches;
    }

    /**
     * The id the user got when it was created, which tokens carry; empty when there is no such
     * user, "" for a user created before users had ids.
     */
    public Optional<String> id(String user)
    {
        return users.id(user);
    }

    /** Sets the password of {@code user}, creating the user if needed. */
    public void setPassword(String user, String password)
    {
        String hash = hasher.hash(password);
        if (!users.replace(user, hash)) {
            users.create(user, hash);
        }
    }

    /** Adds {@code user}; returns false, changing nothing, when the user exists. */
    public boolean create(String user, String password)
    {
        return users.create(user, hasher.hash(password));
    }

    /** Replaces the password of {@code user}; returns false, changing nothing, when there is no such user. */
    public boolean replacePassword(String user, String password)
    {
        return users.replace(user, hasher.hash(password));
    }

    /** Removes {@code user}; returns false when there is no such user. */
    public boolean drop(String user)
    {
        return users.delete(user);
    }

    /** The user names, sorted. */
    public List<String> users()
    {
        return List.copyOf(users.hashes().keySet());
    }
}
