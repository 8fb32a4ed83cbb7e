package io.ontul.catalog.iceberg.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;

import io.ontul.catalog.iceberg.IcebergErrors;
import io.ontul.catalog.iceberg.IcebergTableHandle;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;

/**
 * Plans a scan of the snapshot a query reads with Iceberg's scan planning, which skips the data
 * files whose partition values or column metrics (min/max/null counts) rule out the pushed
 * filter. Each remaining file is one split; when there are fewer files than the engine would like
 * splits, large files are cut at row-group boundaries so that their row groups are read in parallel.
 */
public final class IcebergSplitPlanner
{
    /** Smaller pieces cost more to open than they gain in parallelism. */
    private static final long MINIMUM_SPLIT_BYTES = 8L << 20;

    private IcebergSplitPlanner() {}

    public static List<Split> splits(IcebergTableHandle table, ScanSpec scan, int desiredSplits)
    {
        if (table.snapshot().isEmpty()) {
            return List.of();
        }
        Expression filter = IcebergFilters.toExpression(scan, table.columns());
        List<FileScanTask> files = planFiles(table, filter);
        for (FileScanTask file : files) {
            if (file.deletes().stream().anyMatch(delete -> delete.content() == FileContent.EQUALITY_DELETES)) {
                throw OntulException.userError(ErrorCode.NOT_SUPPORTED,
                        "Table '%s' has equality delete files (written by an upsert, e.g. from Flink), which Ontul cannot apply yet; rewrite the table's data files (rewrite_data_files) to remove them",
                        table.qualifiedName());
            }
        }
        long totalBytes = files.stream().mapToLong(FileScanTask::length).sum();
        List<Split> splits = new ArrayList<>();
        if (files.size() >= desiredSplits || totalBytes == 0) {
            files.forEach(file -> splits.add(new IcebergSplit(table, file)));
            return splits;
        }
        long splitBytes = Math.max(MINIMUM_SPLIT_BYTES, (totalBytes + desiredSplits - 1) / desiredSplits);
        for (FileScanTask file : files) {
            for (FileScanTask piece : file.split(splitBytes)) {
                splits.add(new IcebergSplit(table, piece));
            }
        }
        return splits;
    }

    private static List<FileScanTask> planFiles(IcebergTableHandle table, Expression filter)
    {
        TableScan scan = table.table().newScan()
                .useSnapshot(table.snapshot().orElseThrow().snapshotId())
                .caseSensitive(true)
                .filter(filter);
        List<FileScanTask> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> planned = scan.planFiles()) {
            planned.forEach(files::add);
        }
        catch (IOException e) {
            throw IcebergErrors.table(table.qualifiedName(), "planning the scan failed", new UncheckedIOException(e));
        }
        catch (OntulException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw IcebergErrors.table(table.qualifiedName(), "planning the scan failed", e);
        }
        // manifests are read in parallel: the order is made the same for every planning, so that
        // the workers of a cluster, each planning the scan itself, agree on which split is which
        files.sort(Comparator.comparing((FileScanTask file) -> file.file().location()).thenComparingLong(FileScanTask::start));
        return files;
    }
}
