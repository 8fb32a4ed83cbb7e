package io.ontul.exchange.kms;

import static java.util.Objects.requireNonNull;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * PBKDF2-HMAC-SHA256 from a passphrase and salt to a 256-bit master key, plus a check value that
 * tells a wrong passphrase from a corrupted file without revealing the key.
 */
public final class PassphraseKeyDerivation
{
    public static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    /** OWASP's 2023 figure for PBKDF2-HMAC-SHA256; about 0.2 s on the project's machines. */
    public static final int ITERATIONS = 600_000;
    /** Salt files asking for fewer iterations are refused. */
    public static final int MINIMUM_ITERATIONS = 200_000;
    public static final int SALT_BYTES = 16;

    private static final byte[] CHECK_LABEL = "ontul master key check v1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private PassphraseKeyDerivation() {}

    public static byte[] deriveKey(String passphrase, byte[] salt, int iterations)
    {
        requireNonNull(passphrase, "passphrase is null");
        requireNonNull(salt, "salt is null");
        if (iterations < MINIMUM_ITERATIONS) {
            throw new IllegalArgumentException("PBKDF2 needs at least " + MINIMUM_ITERATIONS + " iterations, not " + iterations);
        }
        char[] characters = passphrase.toCharArray();
        PBEKeySpec spec = new PBEKeySpec(characters, salt, iterations, DataKey.KEY_BYTES * 8);
        try {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JDK", e);
        }
        finally {
            spec.clearPassword();
            Arrays.fill(characters, '\0');
        }
    }

    /** HMAC-SHA256 of a fixed label under the key: equal for equal keys, useless for finding the key. */
    public static byte[] checkValue(byte[] key)
    {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(CHECK_LABEL);
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
        }
    }

    static boolean matches(byte[] key, byte[] expectedCheckValue)
    {
        return MessageDigest.isEqual(checkValue(key), expectedCheckValue);
    }
}
