package io.ontul.engine.expression;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * VARBINARY and UUID functions called by generated code, with Trino's names and semantics:
 * binary values are byte arrays, ordered byte by byte as unsigned numbers (as PostgreSQL's
 * {@code bytea} and Trino's {@code varbinary}); a UUID is its canonical text, lower case.
 */
public final class BinaryFunctions
{
    private static final HexFormat HEX = HexFormat.of();
    private static final Pattern UUID_TEXT = Pattern.compile("\\{?[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}}?");

    private BinaryFunctions() {}

    public static int compare(byte[] a, byte[] b)
    {
        return Arrays.compareUnsigned(a, b);
    }

    public static byte[] greatest(byte[] a, byte[] b)
    {
        return compare(a, b) >= 0 ? a : b;
    }

    public static byte[] least(byte[] a, byte[] b)
    {
        return compare(a, b) <= 0 ? a : b;
    }

    public static byte[] concat(byte[]... parts)
    {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] result = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, result, at, part.length);
            at += part.length;
        }
        return result;
    }

    /** SQL's SUBSTRING on bytes: 1-based start, length in bytes; a start before 1 shortens the result. */
    public static byte[] substring(byte[] value, long start, long length)
    {
        if (length < 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Negative substring length not allowed");
        }
        long from = Math.max(start, 1);
        long to = Math.min(Functions.saturatedAdd(start, length), value.length + 1L);
        return to <= from ? new byte[0] : Arrays.copyOfRange(value, (int) from - 1, (int) to - 1);
    }

    public static byte[] substring(byte[] value, long start)
    {
        return substring(value, start, Integer.MAX_VALUE);
    }

    /** Trino's {@code substr} on bytes: a negative start counts from the end; start 0 or a length below 1 give no bytes. */
    public static byte[] substr(byte[] value, long start, long length)
    {
        long from = Functions.substrStart(value.length, start, length);
        return from < 0 ? new byte[0] : Arrays.copyOfRange(value, (int) from - 1, (int) Math.min(value.length + 1L, Functions.saturatedAdd(from, length)) - 1);
    }

    public static byte[] reverse(byte[] value)
    {
        byte[] result = new byte[value.length];
        for (int i = 0; i < value.length; i++) {
            result[i] = value[value.length - 1 - i];
        }
        return result;
    }

    /** Upper-case hexadecimal, as Trino's {@code to_hex}. */
    public static String toHex(byte[] value)
    {
        return HEX.formatHex(value).toUpperCase(Locale.ROOT);
    }

    public static byte[] fromHex(String text)
    {
        if (text.length() % 2 != 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "from_hex: the text has an odd number of digits (" + text.length() + ")");
        }
        try {
            return HEX.parseHex(text);
        }
        catch (IllegalArgumentException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "from_hex: '" + abbreviate(text) + "' is not hexadecimal");
        }
    }

    public static String toBase64(byte[] value)
    {
        return Base64.getEncoder().encodeToString(value);
    }

    public static byte[] fromBase64(String text)
    {
        try {
            return Base64.getDecoder().decode(text);
        }
        catch (IllegalArgumentException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "from_base64: '" + abbreviate(text) + "' is not Base64: " + e.getMessage());
        }
    }

    public static byte[] toUtf8(String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code from_utf8}: invalid sequences become U+FFFD, as in Trino. */
    public static String fromUtf8(byte[] value)
    {
        return new String(value, StandardCharsets.UTF_8);
    }

    /** {@code CAST(varbinary AS VARCHAR)}: the bytes as UTF-8 text; bytes that are not UTF-8 are an error. */
    public static String castToText(byte[] value)
    {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value))
                    .toString();
        }
        catch (CharacterCodingException e) {
            throw new OntulException(ErrorCode.INVALID_CAST, "Cannot cast VARBINARY X'" + abbreviate(toHex(value))
                    + "' to VARCHAR: it is not UTF-8 text (to_hex or from_utf8 convert any bytes)");
        }
    }

    public static byte[] md5(byte[] value)
    {
        return digest("MD5", value);
    }

    public static byte[] sha1(byte[] value)
    {
        return digest("SHA-1", value);
    }

    public static byte[] sha256(byte[] value)
    {
        return digest("SHA-256", value);
    }

    public static byte[] sha512(byte[] value)
    {
        return digest("SHA-512", value);
    }

    public static long crc32(byte[] value)
    {
        CRC32 crc = new CRC32();
        crc.update(value);
        return crc.getValue();
    }

    private static byte[] digest(String algorithm, byte[] value)
    {
        try {
            return MessageDigest.getInstance(algorithm).digest(value);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every Java runtime", e);
        }
    }

    /**
     * {@code CAST(text AS UUID)}: the canonical form of a UUID written with or without hyphens
     * and braces, in either case (as PostgreSQL accepts them).
     */
    public static String parseUuid(String text)
    {
        String trimmed = text.strip();
        if (!UUID_TEXT.matcher(trimmed).matches()) {
            throw new OntulException(ErrorCode.INVALID_CAST, "Cannot cast '" + abbreviate(text) + "' to UUID: expected 32 hexadecimal digits as xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx");
        }
        String digits = trimmed.replace("-", "").replace("{", "").replace("}", "").toLowerCase(Locale.ROOT);
        return digits.substring(0, 8) + "-" + digits.substring(8, 12) + "-" + digits.substring(12, 16) + "-" + digits.substring(16, 20) + "-" + digits.substring(20);
    }

    /** {@code CAST(varbinary AS UUID)}: 16 bytes, most significant first. */
    public static String uuidOfBytes(byte[] value)
    {
        if (value.length != 16) {
            throw new OntulException(ErrorCode.INVALID_CAST, "Cannot cast a VARBINARY of " + value.length + " bytes to UUID: a UUID has 16");
        }
        ByteBuffer buffer = ByteBuffer.wrap(value);
        return new UUID(buffer.getLong(), buffer.getLong()).toString();
    }

    /** {@code CAST(uuid AS VARBINARY)}: the 16 bytes, most significant first. */
    public static byte[] bytesOfUuid(String uuid)
    {
        UUID value = UUID.fromString(uuid);
        return ByteBuffer.allocate(16).putLong(value.getMostSignificantBits()).putLong(value.getLeastSignificantBits()).array();
    }

    /** {@code uuid()}: a random (version 4) UUID. */
    public static String randomUuid()
    {
        return UUID.randomUUID().toString();
    }

    private static String abbreviate(String text)
    {
        return text.length() <= 64 ? text : text.substring(0, 61) + "...";
    }
}
