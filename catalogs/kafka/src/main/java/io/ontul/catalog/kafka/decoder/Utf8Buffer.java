package io.ontul.catalog.kafka.decoder;

import java.util.Arrays;

/**
 * A reusable buffer that encodes characters to UTF-8 without allocating per value. An unpaired
 * surrogate becomes {@code ?}, as {@link String#getBytes} does.
 */
final class Utf8Buffer
{
    private byte[] bytes = new byte[256];
    private int length;

    /** Encodes the characters; the result is {@link #bytes()}[0, {@link #length()}). */
    void encode(char[] chars, int offset, int count)
    {
        ensureCapacity(count * 3);
        int out = 0;
        int end = offset + count;
        for (int i = offset; i < end; i++) {
            char c = chars[i];
            if (c < 0x80) {
                bytes[out++] = (byte) c;
            }
            else if (c < 0x800) {
                bytes[out++] = (byte) (0xC0 | (c >> 6));
                bytes[out++] = (byte) (0x80 | (c & 0x3F));
            }
            else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(chars[i + 1])) {
                    int codePoint = Character.toCodePoint(c, chars[++i]);
                    bytes[out++] = (byte) (0xF0 | (codePoint >> 18));
                    bytes[out++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
                    bytes[out++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
                    bytes[out++] = (byte) (0x80 | (codePoint & 0x3F));
                }
                else {
                    bytes[out++] = '?';
                }
            }
            else {
                bytes[out++] = (byte) (0xE0 | (c >> 12));
                bytes[out++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                bytes[out++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        length = out;
    }

    byte[] bytes()
    {
        return bytes;
    }

    int length()
    {
        return length;
    }

    private void ensureCapacity(int capacity)
    {
        if (bytes.length < capacity) {
            bytes = Arrays.copyOf(bytes, Math.max(capacity, bytes.length * 2));
        }
    }
}
