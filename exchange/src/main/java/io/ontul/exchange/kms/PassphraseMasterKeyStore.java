package io.ontul.exchange.kms;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Master keys derived from a passphrase ({@code ONTUL_MASTER_KEY}) with PBKDF2-HMAC-SHA256.
 * Each version has its own random salt, stored with the iteration count and a check value in
 * {@code passphrase-vN.properties} in the key directory: the same passphrase and directory give
 * the same keys after a restart, and a rotation gives a new key under the same passphrase.
 * Neither the passphrase nor a key is ever written.
 */
final class PassphraseMasterKeyStore
        implements MasterKeyStore
{
    static final Pattern FILE_NAME = Pattern.compile("passphrase-v(\\d+)\\.properties");

    private final KeyDirectory directory;
    private final String passphrase;
    // PBKDF2 is deliberately slow: derive each version once.
    private final Map<Integer, byte[]> derivedKeys = new ConcurrentHashMap<>();

    PassphraseMasterKeyStore(KeyDirectory directory, String passphrase)
    {
        this.directory = requireNonNull(directory, "directory is null");
        this.passphrase = requireNonNull(passphrase, "passphrase is null");
    }

    static String fileName(int version)
    {
        return "passphrase-v" + version + ".properties";
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
        byte[] key = derivedKeys.get(version);
        if (key == null) {
            key = derive(version);
            derivedKeys.put(version, key);
        }
        return key.clone();
    }

    private byte[] derive(int version)
            throws IOException
    {
        Path file = directory.path().resolve(fileName(version));
        Properties properties = new Properties();
        properties.load(new StringReader(new String(directory.read(file), StandardCharsets.UTF_8)));
        String algorithm = properties.getProperty("algorithm");
        if (!PassphraseKeyDerivation.ALGORITHM.equals(algorithm)) {
            throw new KeyManagementException("Master key file " + file + " names an unsupported key derivation: " + algorithm);
        }
        int iterations;
        byte[] salt;
        byte[] check;
        try {
            iterations = Integer.parseInt(properties.getProperty("iterations", ""));
            salt = Base64.getDecoder().decode(properties.getProperty("salt", ""));
            check = Base64.getDecoder().decode(properties.getProperty("check", ""));
        }
        catch (IllegalArgumentException e) {
            throw new KeyManagementException("Master key file " + file + " is corrupted: " + e.getMessage(), e);
        }
        if (iterations < PassphraseKeyDerivation.MINIMUM_ITERATIONS || salt.length < PassphraseKeyDerivation.SALT_BYTES) {
            throw new KeyManagementException("Master key file " + file + " is corrupted: too few iterations or too short a salt");
        }
        byte[] key = PassphraseKeyDerivation.deriveKey(passphrase, salt, iterations);
        if (!PassphraseKeyDerivation.matches(key, check)) {
            throw new KeyManagementException("wrong master key: ONTUL_MASTER_KEY does not match master key version " + version + " in " + directory.path());
        }
        return key;
    }

    @Override
    public void create(int version)
            throws IOException
    {
        byte[] salt = directory.randomBytes(PassphraseKeyDerivation.SALT_BYTES);
        int iterations = PassphraseKeyDerivation.ITERATIONS;
        byte[] key = PassphraseKeyDerivation.deriveKey(passphrase, salt, iterations);
        String content = "# Ontul master key version " + version + ": derived from ONTUL_MASTER_KEY with this salt.\n"
                + "# Deleting this file makes every file encrypted under version " + version + " unreadable.\n"
                + "algorithm=" + PassphraseKeyDerivation.ALGORITHM + "\n"
                + "iterations=" + iterations + "\n"
                + "salt=" + Base64.getEncoder().encodeToString(salt) + "\n"
                + "check=" + Base64.getEncoder().encodeToString(PassphraseKeyDerivation.checkValue(key)) + "\n";
        directory.createNewFile(fileName(version), content.getBytes(StandardCharsets.UTF_8));
        derivedKeys.put(version, key);
    }

    @Override
    public String description()
    {
        return "passphrase ONTUL_MASTER_KEY with salts in " + directory.path();
    }
}
