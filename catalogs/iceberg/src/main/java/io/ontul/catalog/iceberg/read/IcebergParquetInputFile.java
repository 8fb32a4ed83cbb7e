package io.ontul.catalog.iceberg.read;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A data file opened through the table's Iceberg {@code FileIO} (local disk, HDFS, S3...), as
 * Parquet's reader wants it.
 */
final class IcebergParquetInputFile
        implements InputFile
{
    private final org.apache.iceberg.io.InputFile file;

    IcebergParquetInputFile(org.apache.iceberg.io.InputFile file)
    {
        this.file = requireNonNull(file, "file is null");
    }

    @Override
    public long getLength()
    {
        return file.getLength();
    }

    @Override
    public SeekableInputStream newStream()
    {
        org.apache.iceberg.io.SeekableInputStream stream = file.newStream();
        return new DelegatingSeekableInputStream(stream)
        {
            @Override
            public long getPos()
                    throws IOException
            {
                return stream.getPos();
            }

            @Override
            public void seek(long position)
                    throws IOException
            {
                stream.seek(position);
            }
        };
    }

    @Override
    public String toString()
    {
        return file.location();
    }
}
