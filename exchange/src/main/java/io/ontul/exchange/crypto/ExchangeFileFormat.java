package io.ontul.exchange.crypto;

import java.nio.charset.StandardCharsets;

/**
 * The on-disk format of exchange files (spill files, checkpoints), version 1. All integers are
 * big-endian.
 *
 * <pre>
 * header, encrypted:    "ONTULENC" | version u8 | codec u8 | chunk size i32 | nonce prefix [8]
 *                       | key id length u16 | key id UTF-8 | key version i32
 *                       | wrapped data key length u16 | wrapped data key
 * header, unencrypted:  "ONTULPLN" | version u8 | codec u8 | chunk size i32
 * then chunks 0, 1, ...: flags u8 | sealed length i32 | sealed bytes
 * </pre>
 *
 * A chunk holds at most chunk-size bytes of data, compressed with the header's codec when that
 * makes it smaller (flag {@link #FLAG_COMPRESSED}). Encrypted chunks are sealed with AES-256-GCM
 * under the file's data key: nonce = nonce prefix | chunk index as u32, associated data =
 * SHA-256(header) | chunk index i64 | flags; the 16-byte tag ends the sealed bytes. Unencrypted
 * chunks end with a CRC32C of header | index | flags | data instead. Exactly the last chunk
 * carries {@link #FLAG_FINAL} (an empty one for an empty file), so a file cut at a chunk
 * boundary, chunks swapped or replayed, and bytes after the end are all detected.
 */
public final class ExchangeFileFormat
{
    public static final byte[] ENCRYPTED_MAGIC = "ONTULENC".getBytes(StandardCharsets.US_ASCII);
    public static final byte[] UNENCRYPTED_MAGIC = "ONTULPLN".getBytes(StandardCharsets.US_ASCII);
    public static final int MAGIC_BYTES = 8;
    public static final int FORMAT_VERSION = 1;

    public static final int DEFAULT_CHUNK_SIZE = 1 << 20;
    public static final int MINIMUM_CHUNK_SIZE = 1 << 10;
    public static final int MAXIMUM_CHUNK_SIZE = 16 << 20;
    /** Buffers of a stream start this large and grow to the chunk size as data comes. */
    public static final int INITIAL_BUFFER_BYTES = 64 << 10;

    public static final int NONCE_PREFIX_BYTES = 8;
    public static final int FRAME_HEADER_BYTES = 5;

    public static final int FLAG_FINAL = 1;
    public static final int FLAG_COMPRESSED = 2;
    static final int KNOWN_FLAGS = FLAG_FINAL | FLAG_COMPRESSED;

    /** Chunk indexes are a u32 in the nonce. */
    static final long MAXIMUM_CHUNKS = 1L << 32;

    private ExchangeFileFormat() {}

    static void checkChunkSize(int chunkSize)
    {
        if (chunkSize < MINIMUM_CHUNK_SIZE || chunkSize > MAXIMUM_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunk size must be between " + MINIMUM_CHUNK_SIZE + " and " + MAXIMUM_CHUNK_SIZE + " bytes: " + chunkSize);
        }
    }
}
