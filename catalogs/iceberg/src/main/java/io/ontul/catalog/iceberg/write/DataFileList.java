package io.ontul.catalog.iceberg.write;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.iceberg.DataFile;

import io.ontul.spi.OntulException;

/**
 * Data files written but not committed, as bytes: Java-serialized {@link DataFile}s, as Iceberg's
 * own engines ship them between processes. What a streaming checkpoint stores and what a worker
 * sends its coordinator.
 */
final class DataFileList
{
    private DataFileList() {}

    static byte[] serialize(List<DataFile> files)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(files));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** @param what what the bytes are, for the error: e.g. {@code the data files of a streaming checkpoint} */
    @SuppressWarnings("unchecked")
    static List<DataFile> deserialize(byte[] serialized, String what)
    {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(serialized))) {
            return (List<DataFile>) in.readObject();
        }
        catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw OntulException.internal("cannot read " + what, e);
        }
    }
}
