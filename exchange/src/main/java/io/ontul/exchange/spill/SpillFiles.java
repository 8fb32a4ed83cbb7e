package io.ontul.exchange.spill;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deleting spill folders. */
final class SpillFiles
{
    private SpillFiles() {}

    /** Deletes everything inside {@code directory}; returns how many entries it held. */
    static int deleteChildren(Path directory)
            throws IOException
    {
        int count = 0;
        try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
            for (Path child : children) {
                deleteTree(child);
                count++;
            }
        }
        return count;
    }

    static void deleteTree(Path root)
            throws IOException
    {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
