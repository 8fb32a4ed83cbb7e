package io.ontul.catalog.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Writes data and delete files with Iceberg's own Java API, as another engine would: the other
 * side of the interoperability tests.
 */
public final class IcebergApiWriter
{
    private final Table table;
    private final OutputFileFactory files;

    public IcebergApiWriter(Table table)
    {
        this.table = table;
        this.files = OutputFileFactory.builderFor(table, 7, 7).format(FileFormat.PARQUET).operationId("iceberg-api").build();
    }

    /** One data file holding {@code records}, all of one partition (computed from the first). */
    public DataFile dataFile(List<Record> records)
    {
        StructLike partition = partition(records.get(0));
        EncryptedOutputFile output = partition == null ? files.newOutputFile() : files.newOutputFile(table.spec(), partition);
        DataWriter<Record> writer = new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build()
                .newDataWriter(output, table.spec(), partition);
        try (writer) {
            records.forEach(writer::write);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDataFile();
    }

    /** Appends one data file per list of records, in one commit. */
    public void append(List<List<Record>> fileRecords)
    {
        var append = table.newAppend();
        fileRecords.forEach(records -> append.appendFile(dataFile(records)));
        append.commit();
    }

    public DeleteFile positionDeletes(DataFile dataFile, long... positions)
    {
        EncryptedOutputFile output = dataFile.partition() == null || table.spec().isUnpartitioned() ? files.newOutputFile() : files.newOutputFile(table.spec(), dataFile.partition());
        PositionDeleteWriter<Record> writer = new GenericFileWriterFactory.Builder(table).deleteFileFormat(FileFormat.PARQUET).build()
                .newPositionDeleteWriter(output, table.spec(), table.spec().isUnpartitioned() ? null : dataFile.partition());
        try (writer) {
            for (long position : positions) {
                writer.write(PositionDelete.<Record>create().set(dataFile.location(), position));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDeleteFile();
    }

    public DeleteFile equalityDeletes(Schema deleteSchema, List<Record> deleted)
    {
        int[] fieldIds = deleteSchema.columns().stream().mapToInt(field -> field.fieldId()).toArray();
        EqualityDeleteWriter<Record> writer = new GenericFileWriterFactory.Builder(table)
                .deleteFileFormat(FileFormat.PARQUET)
                .equalityFieldIds(fieldIds)
                .equalityDeleteRowSchema(deleteSchema)
                .build()
                .newEqualityDeleteWriter(files.newOutputFile(), table.spec(), null);
        try (writer) {
            deleted.forEach(writer::write);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDeleteFile();
    }

    private StructLike partition(Record record)
    {
        if (table.spec().isUnpartitioned()) {
            return null;
        }
        PartitionKey key = new PartitionKey(table.spec(), table.schema());
        key.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(record));
        return key;
    }
}
