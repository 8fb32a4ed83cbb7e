package io.ontul.catalog.iceberg.read;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Decodes Parquet's RLE / bit-packing hybrid encoding (definition levels, dictionary indices)
 * many values at a time: a run of repeated values is filled, a bit-packed run is unpacked eight
 * values at a time.
 */
final class RleBitPackedDecoder
{
    private final ByteBuffer input;
    private final int bitWidth;
    private final int bytesPerValue;
    private final BytePacker packer;
    private boolean repeated;
    private int repeatedValue;
    private int remainingInRun;
    private int[] unpacked = new int[64];
    private int unpackedIndex;

    RleBitPackedDecoder(ByteBuffer input, int bitWidth)
    {
        this.input = input.slice();
        this.bitWidth = bitWidth;
        this.bytesPerValue = (bitWidth + 7) / 8;
        this.packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
    }

    void read(int[] output, int offset, int count)
    {
        while (count > 0) {
            if (remainingInRun == 0) {
                nextRun();
            }
            int length = Math.min(count, remainingInRun);
            if (repeated) {
                Arrays.fill(output, offset, offset + length, repeatedValue);
            }
            else {
                System.arraycopy(unpacked, unpackedIndex, output, offset, length);
                unpackedIndex += length;
            }
            remainingInRun -= length;
            offset += length;
            count -= length;
        }
    }

    private void nextRun()
    {
        int header = readUnsignedVarInt();
        if ((header & 1) == 0) {
            repeated = true;
            remainingInRun = header >>> 1;
            int value = 0;
            for (int i = 0; i < bytesPerValue; i++) {
                value |= (input.get() & 0xFF) << (8 * i);
            }
            repeatedValue = value;
        }
        else {
            repeated = false;
            int groups = header >>> 1;
            int values = groups * 8;
            if (unpacked.length < values) {
                unpacked = new int[Math.max(values, unpacked.length * 2)];
            }
            int bytes = groups * bitWidth;
            ByteBuffer packed = input;
            int position = input.position();
            if (input.remaining() < bytes) {
                // a writer may end the last run early: pad it with zeros
                byte[] padded = new byte[bytes];
                input.get(padded, 0, input.remaining());
                packed = ByteBuffer.wrap(padded);
                position = 0;
            }
            else {
                input.position(position + bytes);
            }
            for (int group = 0; group < groups; group++) {
                packer.unpack8Values(packed, position + group * bitWidth, unpacked, group * 8);
            }
            unpackedIndex = 0;
            remainingInRun = values;
        }
    }

    private int readUnsignedVarInt()
    {
        int value = 0;
        int shift = 0;
        int current;
        do {
            current = input.get() & 0xFF;
            value |= (current & 0x7F) << shift;
            shift += 7;
        }
        while ((current & 0x80) != 0);
        return value;
    }

    static int bitWidth(int maxValue)
    {
        return 32 - Integer.numberOfLeadingZeros(maxValue);
    }
}
