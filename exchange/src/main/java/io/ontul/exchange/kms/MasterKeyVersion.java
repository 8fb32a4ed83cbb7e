package io.ontul.exchange.kms;

import static java.util.Objects.requireNonNull;

/**
 * One version of a master key: the key id names the master key, the version counts its
 * rotations from 1.
 */
public record MasterKeyVersion(String keyId, int version)
{
    public MasterKeyVersion
    {
        requireNonNull(keyId, "keyId is null");
        if (keyId.isEmpty()) {
            throw new IllegalArgumentException("keyId is empty");
        }
        if (version < 1) {
            throw new IllegalArgumentException("version must be at least 1: " + version);
        }
    }

    @Override
    public String toString()
    {
        return keyId + " version " + version;
    }
}
