package io.ontul.exchange.crypto;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.kms.KeyManagementService;
import io.ontul.exchange.kms.LocalKeyManagementService;

/**
 * The one way the Exchange Manager turns bytes into files and back: every spill file and
 * checkpoint goes through {@link #newOutputStream} and {@link #newInputStream}, which apply the
 * configured encryption and compression. Thread-safe; each stream is for one thread.
 *
 * <p>With encryption enabled, unencrypted files are refused on read (one could have been
 * planted). With encryption disabled, files are written unencrypted and encrypted files written
 * earlier stay readable if the key directory can be opened.
 */
public final class ExchangeStreamFactory
{
    private static final Logger LOG = LoggerFactory.getLogger(ExchangeStreamFactory.class);
    private static final AtomicBoolean WARNED_UNENCRYPTED = new AtomicBoolean();

    private final EncryptionConfig config;
    private final Optional<KeyManagementService> keyManagement;

    /**
     * @param keyManagement required when encryption is enabled; when disabled, used only to read
     * files encrypted earlier
     */
    public ExchangeStreamFactory(EncryptionConfig config, Optional<KeyManagementService> keyManagement)
    {
        this.config = requireNonNull(config, "config is null");
        this.keyManagement = requireNonNull(keyManagement, "keyManagement is null");
        if (config.enabled() && keyManagement.isEmpty()) {
            throw new IllegalArgumentException("encryption is enabled but no key management service was given");
        }
        if (!config.enabled() && WARNED_UNENCRYPTED.compareAndSet(false, true)) {
            LOG.warn("Exchange encryption is disabled ({}=false): spilled data and checkpoints leave memory unencrypted", EncryptionConfig.ENABLED);
        }
    }

    /**
     * Builds the factory with the local key management service in the configured key directory,
     * or {@code defaultKeyDirectory}.
     *
     * @param passphrase the value of {@code ONTUL_MASTER_KEY}, if set
     */
    public static ExchangeStreamFactory create(EncryptionConfig config, Path defaultKeyDirectory, Optional<String> passphrase)
            throws IOException
    {
        requireNonNull(config, "config is null");
        requireNonNull(defaultKeyDirectory, "defaultKeyDirectory is null");
        requireNonNull(passphrase, "passphrase is null");
        Path keyDirectory = config.keyDirectory().orElse(defaultKeyDirectory);
        if (config.enabled()) {
            return new ExchangeStreamFactory(config, Optional.of(new LocalKeyManagementService(keyDirectory, passphrase)));
        }
        Optional<KeyManagementService> keyManagement = Optional.empty();
        if (Files.isDirectory(keyDirectory)) {
            try {
                keyManagement = Optional.of(new LocalKeyManagementService(keyDirectory, passphrase));
            }
            catch (IOException e) {
                LOG.warn("Exchange files encrypted earlier cannot be read: key directory {} is unusable: {}", keyDirectory, e.getMessage());
            }
        }
        return new ExchangeStreamFactory(config, keyManagement);
    }

    public EncryptionConfig config()
    {
        return config;
    }

    /** A factory with the same keys and encryption whose files' chunks are compressed with {@code codec}. */
    public ExchangeStreamFactory withCompression(CompressionCodec codec)
    {
        return codec == config.compression() ? this : new ExchangeStreamFactory(config.withCompression(codec), keyManagement);
    }

    public Optional<KeyManagementService> keyManagement()
    {
        return keyManagement;
    }

    /**
     * Starts an exchange file on {@code out}; closing the returned stream completes the file and
     * closes {@code out}.
     *
     * @param fileName names the file in error messages
     */
    public ChunkedOutputStream newOutputStream(OutputStream out, String fileName)
            throws IOException
    {
        if (config.enabled()) {
            return ChunkedOutputStream.encrypted(out, fileName, keyManagement.orElseThrow(), config.compression(), config.chunkSize());
        }
        return ChunkedOutputStream.unencrypted(out, fileName, config.compression(), config.chunkSize());
    }

    /**
     * Opens the exchange file on {@code in}, checking its header and unwrapping its data key.
     */
    public ChunkedInputStream newInputStream(InputStream in, String fileName)
            throws IOException
    {
        return ChunkedInputStream.open(in, fileName, keyManagement, config.enabled());
    }

    /** Creates {@code file}, which must not exist, as an exchange file. */
    public ChunkedOutputStream createFile(Path file)
            throws IOException
    {
        OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            return newOutputStream(out, file.toString());
        }
        catch (IOException | RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** Opens the exchange file {@code file}. */
    public ChunkedInputStream openFile(Path file)
            throws IOException
    {
        InputStream in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024);
        try {
            return newInputStream(in, file.toString());
        }
        catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }
}
