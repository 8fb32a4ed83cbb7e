package io.ontul.exchange.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class TestLocalKeyManagementService
{
    @TempDir
    Path temporary;

    @Test
    void generatedKeysUnwrapToTheirPlaintext()
            throws IOException
    {
        LocalKeyManagementService service = new LocalKeyManagementService(temporary.resolve("kms"), Optional.empty());
        DataKey first = service.generateDataKey();
        DataKey second = service.generateDataKey();
        assertThat(first.plaintextKey()).hasSize(32).isNotEqualTo(second.plaintextKey());
        assertThat(first.wrappedKey().masterKey()).isEqualTo(new MasterKeyVersion("local", 1));
        assertThat(java.util.Collections.indexOfSubList(java.util.Arrays.asList(boxed(first.wrappedKey().wrappedBytes())), java.util.Arrays.asList(boxed(first.plaintextKey())))).isEqualTo(-1);
        assertThat(service.unwrapDataKey(first.wrappedKey())).isEqualTo(first.plaintextKey());
        assertThat(service.unwrapDataKey(second.wrappedKey())).isEqualTo(second.plaintextKey());
        first.destroy();
        assertThat(first.plaintextKey()).containsOnly(0);
    }

    @Test
    void keyFilesAreOwnerOnlyAndSurviveARestart()
            throws IOException
    {
        Path directory = temporary.resolve("data").resolve("kms");
        DataKey key = new LocalKeyManagementService(directory, Optional.empty()).generateDataKey();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");
        Path keyFile = directory.resolve("master-key-v1.key");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile))).isEqualTo("rw-------");
        assertThat(Files.size(keyFile)).isEqualTo(32);
        try (var entries = Files.list(directory)) {
            assertThat(entries.map(path -> path.getFileName().toString())).containsExactly("master-key-v1.key");
        }
        LocalKeyManagementService restarted = new LocalKeyManagementService(directory, Optional.empty());
        assertThat(restarted.unwrapDataKey(key.wrappedKey())).isEqualTo(key.plaintextKey());
    }

    @Test
    void rotationAddsAVersionAndKeepsOldOnesUsable()
            throws IOException
    {
        Path directory = temporary.resolve("kms");
        LocalKeyManagementService service = new LocalKeyManagementService(directory, Optional.empty());
        DataKey before = service.generateDataKey();
        assertThat(service.rotateMasterKey()).isEqualTo(new MasterKeyVersion("local", 2));
        assertThat(service.currentMasterKey()).isEqualTo(new MasterKeyVersion("local", 2));
        DataKey after = service.generateDataKey();
        assertThat(after.wrappedKey().masterKey().version()).isEqualTo(2);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve("master-key-v2.key")))).isEqualTo("rw-------");

        LocalKeyManagementService restarted = new LocalKeyManagementService(directory, Optional.empty());
        assertThat(restarted.currentMasterKey().version()).isEqualTo(2);
        assertThat(restarted.unwrapDataKey(before.wrappedKey())).isEqualTo(before.plaintextKey());
        assertThat(restarted.unwrapDataKey(after.wrappedKey())).isEqualTo(after.plaintextKey());
    }

    @Test
    void wrappedKeysAreBoundToTheirVersion()
            throws IOException
    {
        LocalKeyManagementService service = new LocalKeyManagementService(temporary.resolve("kms"), Optional.empty());
        DataKey key = service.generateDataKey();
        service.rotateMasterKey();
        WrappedDataKey relabelled = new WrappedDataKey(new MasterKeyVersion("local", 2), key.wrappedKey().wrappedBytes());
        assertThatThrownBy(() -> service.unwrapDataKey(relabelled))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("wrong master key or corrupted header");
        WrappedDataKey unknown = new WrappedDataKey(new MasterKeyVersion("local", 3), key.wrappedKey().wrappedBytes());
        assertThatThrownBy(() -> service.unwrapDataKey(unknown))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("master key local version 3 does not exist in key files in " + temporary.resolve("kms"));
    }

    @Test
    void anotherKeyDirectoryIsAWrongMasterKey()
            throws IOException
    {
        DataKey key = new LocalKeyManagementService(temporary.resolve("one"), Optional.empty()).generateDataKey();
        LocalKeyManagementService other = new LocalKeyManagementService(temporary.resolve("two"), Optional.empty());
        assertThatThrownBy(() -> other.unwrapDataKey(key.wrappedKey()))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("wrong master key or corrupted header");
    }

    @Test
    void rotationByAnotherProcessIsSeenByNewKeys()
            throws IOException
    {
        Path directory = temporary.resolve("kms");
        LocalKeyManagementService server = new LocalKeyManagementService(directory, Optional.empty());
        assertThat(server.generateDataKey().wrappedKey().masterKey().version()).isEqualTo(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = KeyRotationCommand.rotate(directory, Optional.empty(), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exitCode).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("Rotated master key 'local' in " + directory
                + ": version 1 -> 2. New files use version 2; older versions stay readable." + System.lineSeparator());
        DataKey key = server.generateDataKey();
        assertThat(key.wrappedKey().masterKey().version()).isEqualTo(2);
        assertThat(new LocalKeyManagementService(directory, Optional.empty()).unwrapDataKey(key.wrappedKey())).isEqualTo(key.plaintextKey());
    }

    @Test
    void rotationCommandReportsFailures()
            throws IOException
    {
        Path directory = temporary.resolve("kms");
        new LocalKeyManagementService(directory, Optional.empty());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = KeyRotationCommand.rotate(directory, Optional.of("a passphrase"), new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exitCode).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("Cannot rotate the master key in " + directory + ": Key directory " + directory
                + " holds random master key files, but ONTUL_MASTER_KEY is set: unset it, or use another key directory for passphrase-derived keys" + System.lineSeparator());
    }

    @Test
    void passphraseDerivesTheSameKeysAfterARestart()
            throws IOException
    {
        Path directory = temporary.resolve("kms");
        LocalKeyManagementService service = new LocalKeyManagementService(directory, Optional.of("correct horse battery staple"));
        DataKey before = service.generateDataKey();
        service.rotateMasterKey();
        DataKey after = service.generateDataKey();
        assertThat(after.wrappedKey().masterKey().version()).isEqualTo(2);

        Path salt = directory.resolve("passphrase-v1.properties");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(salt))).isEqualTo("rw-------");
        Properties properties = new Properties();
        properties.load(Files.newBufferedReader(salt));
        assertThat(properties.getProperty("algorithm")).isEqualTo("PBKDF2WithHmacSHA256");
        assertThat(Integer.parseInt(properties.getProperty("iterations"))).isGreaterThanOrEqualTo(200_000);
        assertThat(Files.readString(salt)).doesNotContain("correct horse");
        // A new salt per version: the two versions are different keys under one passphrase.
        Properties second = new Properties();
        second.load(Files.newBufferedReader(directory.resolve("passphrase-v2.properties")));
        assertThat(second.getProperty("salt")).isNotEqualTo(properties.getProperty("salt"));

        LocalKeyManagementService restarted = new LocalKeyManagementService(directory, Optional.of("correct horse battery staple"));
        assertThat(restarted.unwrapDataKey(before.wrappedKey())).isEqualTo(before.plaintextKey());
        assertThat(restarted.unwrapDataKey(after.wrappedKey())).isEqualTo(after.plaintextKey());
        WrappedDataKey relabelled = new WrappedDataKey(new MasterKeyVersion("local", 2), before.wrappedKey().wrappedBytes());
        assertThatThrownBy(() -> restarted.unwrapDataKey(relabelled))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("wrong master key or corrupted header");
    }

    @Test
    void anotherPassphraseIsRefused()
            throws IOException
    {
        Path directory = temporary.resolve("kms");
        DataKey key = new LocalKeyManagementService(directory, Optional.of("first passphrase")).generateDataKey();
        assertThatThrownBy(() -> new LocalKeyManagementService(directory, Optional.of("second passphrase")))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("wrong master key: ONTUL_MASTER_KEY does not match master key version 1 in " + directory);
        // Another passphrase with its own directory reads nothing of the first one.
        LocalKeyManagementService other = new LocalKeyManagementService(temporary.resolve("other"), Optional.of("second passphrase"));
        assertThatThrownBy(() -> other.unwrapDataKey(key.wrappedKey()))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("wrong master key or corrupted header");
    }

    @Test
    void modesDoNotMix()
            throws IOException
    {
        Path files = temporary.resolve("files");
        new LocalKeyManagementService(files, Optional.empty());
        assertThatThrownBy(() -> new LocalKeyManagementService(files, Optional.of("secret")))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("Key directory " + files + " holds random master key files, but ONTUL_MASTER_KEY is set: unset it, or use another key directory for passphrase-derived keys");
        Path derived = temporary.resolve("derived");
        new LocalKeyManagementService(derived, Optional.of("secret"));
        assertThatThrownBy(() -> new LocalKeyManagementService(derived, Optional.empty()))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("Key directory " + derived + " holds passphrase-derived master keys: set ONTUL_MASTER_KEY to the passphrase");
        assertThatThrownBy(() -> new LocalKeyManagementService(temporary.resolve("empty"), Optional.of("")))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("ONTUL_MASTER_KEY is set but empty: set a passphrase or unset it to use random key files in " + temporary.resolve("empty"));
    }

    @Test
    void corruptedKeyFileIsReported()
            throws IOException
    {
        Path directory = temporary.resolve("kms");
        new LocalKeyManagementService(directory, Optional.empty());
        Files.write(directory.resolve("master-key-v1.key"), new byte[5]);
        assertThatThrownBy(() -> new LocalKeyManagementService(directory, Optional.empty()))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("Master key file " + directory.resolve("master-key-v1.key") + " is corrupted: expected 32 bytes, found 5");
    }

    @Test
    void aFileInPlaceOfTheDirectoryIsReported()
            throws IOException
    {
        Path notDirectory = Files.writeString(temporary.resolve("kms"), "x");
        assertThatThrownBy(() -> new LocalKeyManagementService(notDirectory, Optional.empty()))
                .isInstanceOf(KeyManagementException.class)
                .hasMessage("Key directory " + notDirectory + " is not a directory");
    }

    private static Byte[] boxed(byte[] bytes)
    {
        Byte[] boxed = new Byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            boxed[i] = bytes[i];
        }
        return boxed;
    }
}
