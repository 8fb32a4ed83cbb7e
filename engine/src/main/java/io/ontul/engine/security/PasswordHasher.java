package io.ontul.engine.security;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Slow salted password hashes: PBKDF2 with HMAC-SHA256. A stored hash reads
 * {@code pbkdf2-sha256$ITERATIONS$SALT$HASH} (salt and hash in Base64), so the iteration count
 * can rise later without invalidating stored passwords.
 */
public final class PasswordHasher
{
    public static final int ITERATIONS = 210_000;
    private static final String PREFIX = "pbkdf2-sha256";
    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;

    private final SecureRandom random = new SecureRandom();
    private final java.util.concurrent.atomic.AtomicLong derivations = new java.util.concurrent.atomic.AtomicLong();
    private volatile String unknownUserHash;

    public String hash(String password)
    {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        return format(ITERATIONS, salt, derive(password, salt, ITERATIONS));
    }

    public boolean verify(String password, String stored)
    {
        String[] parts = stored.split("\\$");
        if (parts.length != 4 || !parts[0].equals(PREFIX)) {
            return false;
        }
        int iterations;
        byte[] salt;
        byte[] expected;
        try {
            iterations = Integer.parseInt(parts[1]);
            salt = Base64.getDecoder().decode(parts[2]);
            expected = Base64.getDecoder().decode(parts[3]);
        }
        catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(expected, derive(password, salt, iterations));
    }

    /**
     * A hash of a random password, made once: a login of a user that does not exist is verified
     * against it, so that it costs what a login of one that does costs and nobody can tell the two
     * apart by the time the answer takes.
     */
    public String unknownUserHash()
    {
        String hash = unknownUserHash;
        if (hash == null) {
            hash = hash(generatePassword());
            unknownUserHash = hash;
        }
        return hash;
    }

    /** How many PBKDF2 derivations this hasher has computed (each costs ~{@value #ITERATIONS} HMACs). */
    public long derivations()
    {
        return derivations.get();
    }

    /** A random password of 24 URL-safe characters (144 bits). */
    public String generatePassword()
    {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String format(int iterations, byte[] salt, byte[] hash)
    {
        Base64.Encoder encoder = Base64.getEncoder();
        return PREFIX + "$" + iterations + "$" + encoder.encodeToString(salt) + "$" + encoder.encodeToString(hash);
    }

    private byte[] derive(String password, byte[] salt, int iterations)
    {
        derivations.incrementAndGet();
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK lacks " + ALGORITHM, e);
        }
        finally {
            spec.clearPassword();
        }
    }
}
