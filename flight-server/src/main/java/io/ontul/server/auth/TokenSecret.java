package io.ontul.server.auth;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key that signs bearer tokens: 256 random bits in {@code DATA_DIR/auth/token-secret}
 * (Base64), created readable by the owner only on first start and reused afterwards, so tokens
 * stay valid across restarts. Deleting the file invalidates every token at the next start.
 */
public final class TokenSecret
{
    public static final String FILE_NAME = "auth/token-secret";
    private static final Logger LOG = LoggerFactory.getLogger(TokenSecret.class);
    private static final int KEY_BYTES = 32;

    private final byte[] key;

    private TokenSecret(byte[] key)
    {
        if (key.length < KEY_BYTES) {
            throw new IllegalArgumentException("A token secret needs at least " + KEY_BYTES + " bytes, got " + key.length);
        }
        this.key = key.clone();
    }

    /** A secret that lives in memory only, for tests. */
    public static TokenSecret of(byte[] key)
    {
        return new TokenSecret(key);
    }

    public static TokenSecret random()
    {
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        return new TokenSecret(key);
    }

    /** Reads the secret of {@code dataDirectory}, creating it first if it does not exist. */
    public static TokenSecret loadOrCreate(Path dataDirectory)
            throws IOException
    {
        Path file = dataDirectory.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            TokenSecret created = random();
            if (OwnerOnlyFiles.createIfAbsent(file, (Base64.getEncoder().encodeToString(created.key) + "\n").getBytes(US_ASCII))) {
                LOG.info("Created the token signing key {}", file);
                return created;
            }
        }
        if (OwnerOnlyFiles.isExposed(file)) {
            LOG.warn("{} is readable by others than its owner: anyone who reads it can forge tokens (chmod 600 it)", file);
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(Files.readString(file, US_ASCII).trim());
        }
        catch (IllegalArgumentException e) {
            throw new IOException(file + " is not a Base64 key: delete it to create a new one (this logs out every client)", e);
        }
        if (key.length < KEY_BYTES) {
            throw new IOException(file + " holds " + key.length + " bytes, fewer than " + KEY_BYTES + ": delete it to create a new one (this logs out every client)");
        }
        return new TokenSecret(key);
    }

    byte[] key()
    {
        return key.clone();
    }

    @Override
    public String toString()
    {
        return "TokenSecret[" + key.length * 8 + " bits]";
    }
}
