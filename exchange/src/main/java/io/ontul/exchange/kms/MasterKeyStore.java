package io.ontul.exchange.kms;

import java.io.IOException;
import java.util.SortedSet;

/**
 * Where the versions of the local master key come from. {@link LocalKeyManagementService} wraps
 * and unwraps; a store only lists, creates and yields 256-bit master keys. A version, once
 * created, never changes.
 */
interface MasterKeyStore
{
    /** The versions present now, ascending; empty before the first {@link #create}. */
    SortedSet<Integer> versions()
            throws IOException;

    /**
     * The 256-bit key of a version listed by {@link #versions()}.
     *
     * @throws KeyManagementException if the version's material is missing, corrupted, or does
     * not match the configured passphrase
     */
    byte[] key(int version)
            throws IOException;

    /** Creates a version that does not exist yet; fails if it does. */
    void create(int version)
            throws IOException;

    /** Names the material for messages, e.g. "key files in /data/kms". */
    String description();
}
