package io.ontul.bench.streaming;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

final class TemporaryDirectories
{
    private TemporaryDirectories() {}

    /** Deletes {@code directory} and everything below it; a failure is only reported. */
    static void delete(Path directory)
    {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException e) {
            System.err.println("Could not delete " + directory + ": " + e.getMessage());
        }
    }
}
