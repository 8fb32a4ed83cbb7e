package io.ontul.exchange.kms;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * A data key encrypted by a master key version, as stored in a file header. The bytes are opaque
 * to everyone but the key management service that made them.
 */
public final class WrappedDataKey
{
    private final MasterKeyVersion masterKey;
    private final byte[] wrappedBytes;

    public WrappedDataKey(MasterKeyVersion masterKey, byte[] wrappedBytes)
    {
        this.masterKey = requireNonNull(masterKey, "masterKey is null");
        this.wrappedBytes = requireNonNull(wrappedBytes, "wrappedBytes is null").clone();
    }

    public MasterKeyVersion masterKey()
    {
        return masterKey;
    }

    public byte[] wrappedBytes()
    {
        return wrappedBytes.clone();
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof WrappedDataKey that
                && masterKey.equals(that.masterKey)
                && Arrays.equals(wrappedBytes, that.wrappedBytes);
    }

    @Override
    public int hashCode()
    {
        return 31 * masterKey.hashCode() + Arrays.hashCode(wrappedBytes);
    }

    @Override
    public String toString()
    {
        return "WrappedDataKey[" + masterKey + ", " + wrappedBytes.length + " bytes]";
    }
}
