package io.ontul.exchange.kms;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import java.util.SortedSet;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The default key management service: master key versions kept in a local key directory, owner
 * only. Two modes, chosen by whether a passphrase is given (the server passes
 * {@code ONTUL_MASTER_KEY}):
 * <ul>
 *   <li>passphrase: version N is PBKDF2-HMAC-SHA256(passphrase, salt N), each version with its
 *       own random salt in {@code passphrase-vN.properties} ({@link PassphraseMasterKeyStore});</li>
 *   <li>no passphrase: version N is a random 256-bit key in {@code master-key-vN.key}
 *       ({@link KeyFileMasterKeyStore}).</li>
 * </ul>
 * A directory is in one mode for good: mixing them is refused. Version 1 is created when the
 * directory holds none. Data keys are wrapped with AES-256-GCM under the master key, a random
 * 12-byte IV, and the key id and version as associated data, so a wrapped key cannot be passed
 * off as belonging to another version. A rotation made by another process (e.g.
 * {@code bin/ontul kms rotate}) is picked up by the next {@link #generateDataKey()}.
 */
public final class LocalKeyManagementService
        implements KeyManagementService
{
    public static final String KEY_ID = "local";

    private static final byte WRAP_SCHEME_AES_GCM = 1;
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int WRAPPED_BYTES = 1 + IV_BYTES + DataKey.KEY_BYTES + TAG_BITS / 8;

    private final KeyDirectory directory;
    private final MasterKeyStore store;
    private final SecureRandom random = new SecureRandom();
    private FileTime directoryModified;
    private SortedSet<Integer> versions;
    private MasterKeyVersion current;

    /**
     * Opens the key directory, creating it and master key version 1 if needed.
     *
     * @param passphrase the master passphrase ({@code ONTUL_MASTER_KEY}), or empty to use random
     * key files
     */
    public LocalKeyManagementService(Path keyDirectory, Optional<String> passphrase)
            throws IOException
    {
        requireNonNull(keyDirectory, "keyDirectory is null");
        requireNonNull(passphrase, "passphrase is null");
        if (passphrase.isPresent() && passphrase.get().isEmpty()) {
            throw new KeyManagementException("ONTUL_MASTER_KEY is set but empty: set a passphrase or unset it to use random key files in " + keyDirectory);
        }
        this.directory = new KeyDirectory(keyDirectory);
        boolean hasKeyFiles = !directory.versionedFiles(KeyFileMasterKeyStore.FILE_NAME).isEmpty();
        boolean hasSalts = !directory.versionedFiles(PassphraseMasterKeyStore.FILE_NAME).isEmpty();
        if (passphrase.isPresent() && hasKeyFiles) {
            throw new KeyManagementException("Key directory " + directory.path() + " holds random master key files, but ONTUL_MASTER_KEY is set: unset it, or use another key directory for passphrase-derived keys");
        }
        if (passphrase.isEmpty() && hasSalts) {
            throw new KeyManagementException("Key directory " + directory.path() + " holds passphrase-derived master keys: set ONTUL_MASTER_KEY to the passphrase");
        }
        this.store = passphrase.isPresent()
                ? new PassphraseMasterKeyStore(directory, passphrase.get())
                : new KeyFileMasterKeyStore(directory);
        synchronized (this) {
            reload();
            if (current == null) {
                store.create(1);
                reload();
            }
            // Fail at start-up, not at the first spill, when the passphrase or a key file is wrong.
            store.key(current.version());
        }
    }

    public Path keyDirectory()
    {
        return directory.path();
    }

    @Override
    public DataKey generateDataKey()
            throws IOException
    {
        MasterKeyVersion version = refreshedCurrent();
        byte[] masterKey = store.key(version.version());
        byte[] dataKey = new byte[DataKey.KEY_BYTES];
        random.nextBytes(dataKey);
        byte[] iv = new byte[IV_BYTES];
        random.nextBytes(iv);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, masterKey, iv, version);
            ByteBuffer wrapped = ByteBuffer.allocate(WRAPPED_BYTES);
            wrapped.put(WRAP_SCHEME_AES_GCM).put(iv).put(cipher.doFinal(dataKey));
            return new DataKey(dataKey, new WrappedDataKey(version, wrapped.array()));
        }
        catch (GeneralSecurityException e) {
            throw new KeyManagementException("Cannot wrap a data key with master key " + version + ": " + e.getMessage(), e);
        }
        finally {
            Arrays.fill(dataKey, (byte) 0);
            Arrays.fill(masterKey, (byte) 0);
        }
    }

    @Override
    public byte[] unwrapDataKey(WrappedDataKey wrappedKey)
            throws IOException
    {
        requireNonNull(wrappedKey, "wrappedKey is null");
        MasterKeyVersion version = wrappedKey.masterKey();
        if (!KEY_ID.equals(version.keyId())) {
            throw new KeyManagementException("master key '" + version.keyId() + "' is unknown: the local key management service has only '" + KEY_ID + "'");
        }
        byte[] wrapped = wrappedKey.wrappedBytes();
        if (wrapped.length != WRAPPED_BYTES || wrapped[0] != WRAP_SCHEME_AES_GCM) {
            throw new KeyManagementException("wrong master key or corrupted header");
        }
        byte[] masterKey = store.key(knownVersion(version.version()));
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, masterKey, Arrays.copyOfRange(wrapped, 1, 1 + IV_BYTES), version);
            return cipher.doFinal(wrapped, 1 + IV_BYTES, wrapped.length - 1 - IV_BYTES);
        }
        catch (AEADBadTagException e) {
            throw new KeyManagementException("wrong master key or corrupted header", e);
        }
        catch (GeneralSecurityException e) {
            throw new KeyManagementException("Cannot unwrap a data key with master key " + version + ": " + e.getMessage(), e);
        }
        finally {
            Arrays.fill(masterKey, (byte) 0);
        }
    }

    @Override
    public synchronized MasterKeyVersion rotateMasterKey()
            throws IOException
    {
        reload();
        store.create(current.version() + 1);
        reload();
        return current;
    }

    @Override
    public MasterKeyVersion currentMasterKey()
            throws IOException
    {
        return refreshedCurrent();
    }

    private synchronized MasterKeyVersion refreshedCurrent()
            throws IOException
    {
        if (!Files.getLastModifiedTime(directory.path()).equals(directoryModified)) {
            reload();
        }
        return current;
    }

    private synchronized int knownVersion(int version)
            throws IOException
    {
        if (!versions.contains(version)) {
            reload();
        }
        if (!versions.contains(version)) {
            throw new KeyManagementException("master key " + new MasterKeyVersion(KEY_ID, version) + " does not exist in " + store.description());
        }
        return version;
    }

    private void reload()
            throws IOException
    {
        // Read the time first: a version created meanwhile makes the next check reload again.
        directoryModified = Files.getLastModifiedTime(directory.path());
        versions = store.versions();
        current = versions.isEmpty() ? null : new MasterKeyVersion(KEY_ID, versions.last());
    }

    private static Cipher cipher(int mode, byte[] masterKey, byte[] iv, MasterKeyVersion version)
            throws GeneralSecurityException
    {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, new SecretKeySpec(masterKey, "AES"), new GCMParameterSpec(TAG_BITS, iv));
        cipher.updateAAD(associatedData(version));
        return cipher;
    }

    private static byte[] associatedData(MasterKeyVersion version)
    {
        byte[] keyId = version.keyId().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(16 + keyId.length + 4)
                .put("ontul data key\0\0".getBytes(StandardCharsets.US_ASCII))
                .put(keyId)
                .putInt(version.version())
                .array();
    }
}
