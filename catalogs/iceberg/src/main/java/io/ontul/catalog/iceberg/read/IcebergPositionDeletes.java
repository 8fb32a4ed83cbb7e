package io.ontul.catalog.iceberg.read;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;

/**
 * The rows of one data file deleted by position delete files or deletion vectors (format v2/v3),
 * loaded with Iceberg's own delete machinery. Equality deletes are refused before a scan starts
 * (see {@code IcebergSplitPlanner}).
 */
final class IcebergPositionDeletes
        extends DeleteFilter<Object>
{
    private final FileIO io;

    IcebergPositionDeletes(FileScanTask task, Schema tableSchema, FileIO io)
    {
        super(task.file().location(), task.deletes(), tableSchema, tableSchema);
        this.io = requireNonNull(io, "io is null");
    }

    /** The deleted row positions of the file, or an empty index. */
    PositionDeleteIndex positions()
    {
        PositionDeleteIndex positions = hasPosDeletes() ? deletedRowPositions() : null;
        return positions == null ? PositionDeleteIndex.empty() : positions;
    }

    @Override
    protected StructLike asStructLike(Object row)
    {
        throw new UnsupportedOperationException("Ontul applies position deletes to Arrow batches, not to rows");
    }

    @Override
    protected InputFile getInputFile(String location)
    {
        return io.newInputFile(location);
    }
}
