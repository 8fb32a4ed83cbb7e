package io.ontul.exchange.kms;

import java.io.IOException;

/**
 * Envelope encryption keys: every file the Exchange Manager writes is encrypted with its own
 * random 256-bit data key, and only the data key wrapped (encrypted) by a master key is stored
 * in the file's header. The master key never leaves the key management service.
 *
 * <p>Protocol:
 * <ol>
 *   <li>A writer calls {@link #generateDataKey()} once per file, encrypts the file with
 *       {@link DataKey#plaintextKey()}, stores {@link DataKey#wrappedKey()} (master key id,
 *       version and wrapped bytes) in the file's header, then {@link DataKey#destroy() destroys}
 *       the plaintext.</li>
 *   <li>A reader passes the stored {@link WrappedDataKey} to {@link #unwrapDataKey} and gets the
 *       plaintext data key back. Unwrapping fails with a {@link KeyManagementException} when the
 *       master key is wrong, the version is unknown, or the wrapped bytes were altered; its
 *       message does not name the file: the caller adds it.</li>
 *   <li>{@link #rotateMasterKey()} adds a new master key version and makes it current: data keys
 *       generated afterwards are wrapped by it. Every earlier version stays usable for
 *       {@link #unwrapDataKey}, so files written before a rotation stay readable. Rotation
 *       never re-wraps existing files.</li>
 * </ol>
 *
 * <p>Implementations are thread-safe. The operations are the ones a cloud KMS offers too
 * (generate data key, decrypt, rotate, describe), so a cloud implementation can replace the
 * local one; a KMS that keeps versions inside its own ciphertext may report any stable version
 * number.
 */
public interface KeyManagementService
{
    /**
     * Generates a fresh random 256-bit data key wrapped by the current master key version.
     * Each call returns a different key.
     */
    DataKey generateDataKey()
            throws IOException;

    /**
     * Returns the 256-bit plaintext of a data key that {@link #generateDataKey()} of this or an
     * earlier instance over the same master key produced.
     *
     * @throws KeyManagementException if the master key or version is unknown, the master key is
     * wrong, or the wrapped bytes do not authenticate
     */
    byte[] unwrapDataKey(WrappedDataKey wrappedKey)
            throws IOException;

    /**
     * Adds master key version current + 1 and makes it current. Returns the new version.
     */
    MasterKeyVersion rotateMasterKey()
            throws IOException;

    /**
     * The master key id and version that new data keys are wrapped with.
     */
    MasterKeyVersion currentMasterKey()
            throws IOException;
}
