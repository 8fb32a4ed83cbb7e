package io.ontul.exchange.crypto;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Where the header and chunk frames of an exchange file lie, to tamper with them precisely. */
record ChunkLayout(int headerLength, List<Frame> frames)
{
    /** A chunk frame: offset of its flags byte, and its total length (flags, length, sealed bytes). */
    record Frame(int offset, int length)
    {
        int end()
        {
            return offset + length;
        }
    }

    static ChunkLayout of(byte[] file)
            throws IOException
    {
        int headerLength = FileHeader.read(new ByteArrayInputStream(file), "layout").bytes().length;
        List<Frame> frames = new ArrayList<>();
        int offset = headerLength;
        while (offset < file.length) {
            int sealedLength = ByteBuffer.wrap(file, offset + 1, 4).getInt();
            frames.add(new Frame(offset, ExchangeFileFormat.FRAME_HEADER_BYTES + sealedLength));
            offset += ExchangeFileFormat.FRAME_HEADER_BYTES + sealedLength;
        }
        return new ChunkLayout(headerLength, List.copyOf(frames));
    }
}
