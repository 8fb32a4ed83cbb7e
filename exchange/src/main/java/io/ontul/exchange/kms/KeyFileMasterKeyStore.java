package io.ontul.exchange.kms;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Master keys as random 256-bit files {@code master-key-vN.key}, owner-only, in the key
 * directory. Used when no passphrase ({@code ONTUL_MASTER_KEY}) is configured.
 */
final class KeyFileMasterKeyStore
        implements MasterKeyStore
{
    static final Pattern FILE_NAME = Pattern.compile("master-key-v(\\d+)\\.key");

    private final KeyDirectory directory;
    // A version never changes once created: read each file once.
    private final Map<Integer, byte[]> keys = new ConcurrentHashMap<>();

    KeyFileMasterKeyStore(KeyDirectory directory)
    {
        this.directory = requireNonNull(directory, "directory is null");
    }

    static String fileName(int version)
    {
        return "master-key-v" + version + ".key";
    }

    @Override
    public SortedSet<Integer> versions()
            throws IOException
    {
        return new TreeSet<>(directory.versionedFiles(FILE_NAME).keySet());
    }

    @Override
    public byte[] key(int version)
            throws IOException
    {
        byte[] key = keys.get(version);
        if (key == null) {
            key = read(version);
            keys.put(version, key);
        }
        return key.clone();
    }

    private byte[] read(int version)
            throws IOException
    {
        Path file = directory.path().resolve(fileName(version));
        byte[] key = directory.read(file);
        if (key.length != DataKey.KEY_BYTES) {
            throw new KeyManagementException("Master key file " + file + " is corrupted: expected " + DataKey.KEY_BYTES + " bytes, found " + key.length);
        }
        return key;
    }

    @Override
    public void create(int version)
            throws IOException
    {
        byte[] key = directory.randomBytes(DataKey.KEY_BYTES);
        directory.createNewFile(fileName(version), key);
        keys.put(version, key);
    }

    @Override
    public String description()
    {
        return "key files in " + directory.path();
    }
}
