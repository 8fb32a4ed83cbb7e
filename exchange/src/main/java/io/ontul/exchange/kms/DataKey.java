package io.ontul.exchange.kms;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * A freshly generated data key: its plaintext, to encrypt one file with, and its wrapped form, to
 * store in that file's header. Call {@link #destroy()} once the cipher is initialised.
 */
public final class DataKey
{
    public static final int KEY_BYTES = 32;

    private final byte[] plaintextKey;
    private final WrappedDataKey wrappedKey;

    public DataKey(byte[] plaintextKey, WrappedDataKey wrappedKey)
    {
        requireNonNull(plaintextKey, "plaintextKey is null");
        if (plaintextKey.length != KEY_BYTES) {
            throw new IllegalArgumentException("data key must be " + KEY_BYTES + " bytes, not " + plaintextKey.length);
        }
        this.plaintextKey = plaintextKey.clone();
        this.wrappedKey = requireNonNull(wrappedKey, "wrappedKey is null");
    }

    /** A copy of the 256-bit plaintext key. */
    public byte[] plaintextKey()
    {
        return plaintextKey.clone();
    }

    public WrappedDataKey wrappedKey()
    {
        return wrappedKey;
    }

    /** Overwrites the plaintext held by this object with zeros. */
    public void destroy()
    {
        Arrays.fill(plaintextKey, (byte) 0);
    }

    @Override
    public String toString()
    {
        return "DataKey[" + wrappedKey.masterKey() + "]";
    }
}
