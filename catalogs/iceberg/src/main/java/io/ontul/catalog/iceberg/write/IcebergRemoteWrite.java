package io.ontul.catalog.iceberg.write;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

import io.ontul.catalog.iceberg.IcebergTableHandle;
import io.ontul.catalog.iceberg.type.IcebergTypes;
import io.ontul.spi.OntulException;

/**
 * What a worker needs to write data files for a statement its coordinator commits: the table as
 * Iceberg ships it to the executors of its own engines ({@link SerializableTable}: schema,
 * partition spec, properties, location provider and file IO, also of a table that exists only in
 * a create-table transaction), the statement's operation id (in every file's name, so that the
 * coordinator can find what a dead worker left) and the target file size.
 */
public record IcebergRemoteWrite(String qualifiedName, Table table, String operationId, long targetFileSize)
        implements Serializable
{
    public IcebergRemoteWrite
    {
        requireNonNull(qualifiedName, "qualifiedName is null");
        requireNonNull(table, "table is null");
        requireNonNull(operationId, "operationId is null");
    }

    static IcebergRemoteWrite of(IcebergTableHandle table, String operationId, long targetFileSize)
    {
        return new IcebergRemoteWrite(table.qualifiedName(), SerializableTable.copyOf(table.table()), operationId, targetFileSize);
    }

    public byte[] toBytes()
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(this);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot describe the write to table '" + qualifiedName + "' for the workers", e);
        }
        return bytes.toByteArray();
    }

    public static IcebergRemoteWrite fromBytes(byte[] bytes)
    {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return (IcebergRemoteWrite) in.readObject();
        }
        catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw OntulException.internal("cannot read the coordinator's description of an Iceberg write", e);
        }
    }

    /** The table as this process writes it: the schema the coordinator planned with, every column. */
    IcebergTableHandle handle()
    {
        List<Types.NestedField> skipped = new ArrayList<>();
        return new IcebergTableHandle(qualifiedName, table, table.schema(), IcebergTypes.columns(table.schema(), skipped), Optional.empty(), false);
    }

    /** Opens this process's writer of the statement's data files. */
    public io.ontul.spi.SinkWriter open(int taskId, org.apache.arrow.memory.BufferAllocator allocator, int threads)
    {
        return new IcebergDataWriter(handle(), operationId, taskId, targetFileSize, allocator, threads);
    }
}
