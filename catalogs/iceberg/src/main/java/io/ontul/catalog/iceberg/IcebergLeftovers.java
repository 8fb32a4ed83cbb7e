package io.ontul.catalog.iceberg;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Data files of a CREATE TABLE AS that never committed: a server killed while writing them leaves
 * them in the location of a table the catalog does not know. The next create of that table
 * deletes them, before it writes its own.
 */
public final class IcebergLeftovers
{
    private static final Logger LOG = LoggerFactory.getLogger(IcebergLeftovers.class);
    /**
     * How Ontul's writers name data files ({@code OutputFileFactory}: partition, task, the
     * statement's operation id, a counter). Other files are never touched.
     */
    private static final Pattern ONTUL_DATA_FILE = Pattern.compile("\\d{5}-\\d+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-\\d{5}\\.parquet");

    private IcebergLeftovers() {}

    /**
     * Deletes Ontul's data files under the location of {@code pending}, a table not yet
     * created; nothing if the location holds table metadata (a table lives there after all) or the
     * file system cannot list.
     *
     * @return how many files were deleted
     */
    static int deleteUncommittedDataFiles(String qualifiedName, Table pending)
    {
        if (!(pending.io() instanceof SupportsPrefixOperations files)) {
            return 0;
        }
        String location = pending.location().endsWith("/") ? pending.location() : pending.location() + "/";
        if (!list(files, location + "metadata/").isEmpty()) {
            return 0;
        }
        List<String> leftovers = new ArrayList<>();
        for (FileInfo file : list(files, location + "data/")) {
            String name = file.location().substring(file.location().lastIndexOf('/') + 1);
            if (ONTUL_DATA_FILE.matcher(name).matches()) {
                leftovers.add(file.location());
            }
        }
        if (leftovers.isEmpty()) {
            return 0;
        }
        LOG.warn("Table '{}' does not exist, but its location {} holds {} data files of an earlier CREATE TABLE that never committed (the server stopped while writing); deleting them",
                qualifiedName, location, leftovers.size());
        leftovers.forEach(files::deleteFile);
        return leftovers.size();
    }

    /**
     * Deletes the data files of one write, {@code operationId} (in their names), under the data
     * location of {@code table}: what the workers of a distributed write left when it failed,
     * also a worker that died before it reported its files. Nothing if the file system cannot list.
     *
     * @return how many files were deleted
     */
    public static int deleteFilesOfOperation(String qualifiedName, Table table, String operationId)
    {
        if (!(table.io() instanceof SupportsPrefixOperations files)) {
            LOG.warn("The file system of table '{}' cannot list files: data files that workers left of the failed write {} stay", qualifiedName, operationId);
            return 0;
        }
        String location = table.properties().getOrDefault(TableProperties.WRITE_DATA_LOCATION,
                (table.location().endsWith("/") ? table.location() : table.location() + "/") + "data");
        String marker = "-" + operationId + "-";
        int deleted = 0;
        for (FileInfo file : list(files, location.endsWith("/") ? location : location + "/")) {
            String name = file.location().substring(file.location().lastIndexOf('/') + 1);
            if (name.contains(marker) && ONTUL_DATA_FILE.matcher(name).matches()) {
                files.deleteFile(file.location());
                deleted++;
            }
        }
        return deleted;
    }

    private static List<FileInfo> list(SupportsPrefixOperations files, String prefix)
    {
        List<FileInfo> found = new ArrayList<>();
        try {
            files.listPrefix(prefix).forEach(found::add);
        }
        catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof FileNotFoundException)) {
                throw e;
            }
        }
        return found;
    }
}
