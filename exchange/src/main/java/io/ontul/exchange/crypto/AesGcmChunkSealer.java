package io.ontul.exchange.crypto;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM per chunk with the JDK provider (its AES and GHASH intrinsics make ~1 MiB messages
 * fast; one doFinal over a whole file is not). Nonce = 8-byte random prefix | u32 chunk index:
 * unique per chunk, and the data key is fresh per file anyway. Associated data = SHA-256(header)
 * | i64 chunk index | flags.
 */
final class AesGcmChunkSealer
        implements ChunkSealer
{
    private static final int TAG_BYTES = 16;

    private final String fileName;
    private final SecretKey key;
    private final Cipher cipher;
    private final byte[] nonce = new byte[12];
    private final byte[] associatedData = new byte[32 + 8 + 1];

    AesGcmChunkSealer(String fileName, byte[] dataKey, byte[] noncePrefix, byte[] headerBytes)
    {
        this.fileName = requireNonNull(fileName, "fileName is null");
        this.key = new SecretKeySpec(requireNonNull(dataKey, "dataKey is null"), "AES");
        System.arraycopy(noncePrefix, 0, nonce, 0, ExchangeFileFormat.NONCE_PREFIX_BYTES);
        try {
            this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
            System.arraycopy(MessageDigest.getInstance("SHA-256").digest(headerBytes), 0, associatedData, 0, 32);
        }
        catch (NoSuchAlgorithmException | javax.crypto.NoSuchPaddingException e) {
            throw new IllegalStateException("AES/GCM or SHA-256 is not available in this JDK", e);
        }
    }

    @Override
    public int overhead()
    {
        return TAG_BYTES;
    }

    @Override
    public int seal(long index, byte flags, byte[] input, int offset, int length, byte[] output, int outputOffset)
            throws IOException
    {
        try {
            initialize(Cipher.ENCRYPT_MODE, index, flags);
            return cipher.doFinal(input, offset, length, output, outputOffset);
        }
        catch (GeneralSecurityException e) {
            throw new ExchangeFileException(fileName, fileName + ": cannot encrypt chunk " + index + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int open(long index, byte flags, byte[] input, int offset, int length, byte[] output, int outputOffset)
            throws IOException
    {
        try {
            initialize(Cipher.DECRYPT_MODE, index, flags);
            return cipher.doFinal(input, offset, length, output, outputOffset);
        }
        catch (AEADBadTagException e) {
            throw new ExchangeFileException(fileName, fileName + ": chunk " + index + " failed authentication (tampered, reordered or wrong key)", e);
        }
        catch (GeneralSecurityException e) {
            throw new ExchangeFileException(fileName, fileName + ": cannot decrypt chunk " + index + ": " + e.getMessage(), e);
        }
    }

    private void initialize(int mode, long index, byte flags)
            throws GeneralSecurityException
    {
        ByteBuffer.wrap(nonce, ExchangeFileFormat.NONCE_PREFIX_BYTES, 4).putInt((int) index);
        ByteBuffer.wrap(associatedData, 32, 9).putLong(index).put(flags);
        cipher.init(mode, key, new GCMParameterSpec(TAG_BYTES * 8, nonce));
        cipher.updateAAD(associatedData);
    }
}
