package io.ontul.exchange.checkpoint;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.exchange.crypto.ExchangeStreamFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The contract every checkpoint store configuration keeps: task snapshots read back exactly as
 * written; a checkpoint exists only once completed; retention, clean-up and job deletion remove
 * exactly what they say; damaged, moved or missing files fail with their name; ids increase;
 * a restarted store sees the same checkpoints. Subclasses choose how the base directory is
 * named and the exchange stream settings; all files are on the local disk, so the tests can
 * damage them.
 */
public abstract class AbstractTestCheckpointStore
{
    protected static final String JOB = "orders_per_minute";

    private static final Schema WINDOW_STATE = new Schema(List.of(
            new Field("window_start", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("key", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
            new Field("total", FieldType.nullable(new ArrowType.Int(64, true)), null)));
    private static final Schema PENDING_COMMITS = new Schema(List.of(
            new Field("sink", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
            new Field("payload", FieldType.nullable(ArrowType.Binary.INSTANCE), null)));
    private static final int[] BATCH_ROWS = {0, 1000, 37};

    @TempDir
    Path temporary;

    private BufferAllocator allocator;
    private ExchangeStreamFactory streams;
    private final List<CheckpointStore> stores = new ArrayList<>();

    /** How the test names the base directory {@code directory} to the store. */
    protected abstract String baseDirectory(Path directory);

    protected abstract ExchangeStreamFactory streams(Path keyDirectory)
            throws IOException;

    /** Whether {@link #streams} encrypts. */
    protected abstract boolean encrypted();

    @BeforeEach
    void setUp()
            throws IOException
    {
        allocator = new RootAllocator();
        streams = streams(temporary.resolve("kms"));
    }

    @AfterEach
    void tearDown()
    {
        stores.forEach(CheckpointStore::close);
        allocator.close();
    }

    @Test
    public void taskSnapshotsReadBackAsWritten()
    {
        CheckpointStore store = store();
        for (int task = 0; task < 3; task++) {
            writeTask(store, JOB, 1, "task-" + task);
        }
        CompletedCheckpoint completed = store.complete(JOB, 1, Map.of("sink.iceberg.pending", "snapshot-17", "unicode", "Grüße ✓"));
        assertCheckpoint(completed, 1, 3);

        CompletedCheckpoint latest = store.latestComplete(JOB).orElseThrow();
        assertCheckpoint(latest, 1, 3);
        assertThat(latest.completedAt()).isEqualTo(completed.completedAt());
        assertThat(store.completedCheckpointIds(JOB)).containsExactly(1L);
        assertThat(store.jobs()).containsExactly(JOB);
    }

    @Test
    public void everyFileIsAnExchangeFileUnderItsFinalName()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        store.complete(JOB, 1, Map.of("k", "v"));
        List<Path> files;
        try (Stream<Path> walk = Files.walk(checkpointFolder(JOB, 1))) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        assertThat(files).extracting(file -> checkpointFolder(JOB, 1).relativize(file).toString())
                .containsExactly("_checkpoint", "tasks/task-0/_task", "tasks/task-0/pending-commits.arrow", "tasks/task-0/window-state.arrow");
        for (Path file : files) {
            assertThat(new String(Arrays.copyOf(Files.readAllBytes(file), 8), ISO_8859_1)).isEqualTo(encrypted() ? "ONTULENC" : "ONTULPLN");
        }
    }

    @Test
    public void filesAppearOnlyWhenComplete()
            throws IOException
    {
        CheckpointStore store = store();
        try (TaskSnapshotWriter writer = store.taskSnapshot(JOB, 1, "task-0")) {
            StateStreamWriter stream = writer.stream("window-state", WINDOW_STATE);
            try (VectorSchemaRoot batch = windowBatch("task-0", 0, 100)) {
                stream.write(batch);
            }
            // only temporary names, which start with a dot, until the task finishes
            assertThat(fileNames(taskFolder(JOB, 1, "task-0"))).allMatch(name -> name.startsWith("."));
            writer.finish(Map.of());
            assertThat(fileNames(taskFolder(JOB, 1, "task-0"))).containsExactlyInAnyOrder("_task", "window-state.arrow");
        }
        assertThat(store.latestComplete(JOB)).isEmpty();
        store.complete(JOB, 1, Map.of());
        assertThat(fileNames(checkpointFolder(JOB, 1))).containsExactlyInAnyOrder("_checkpoint", "tasks");
    }

    @Test
    public void latestCompleteIgnoresIncompleteCheckpoints()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        store.complete(JOB, 1, Map.of("checkpoint", "1"));
        // checkpoint 2: tasks written, never completed
        writeTask(store, JOB, 2, "task-0");
        writeTask(store, JOB, 2, "task-1");
        // checkpoint 3: the coordinator died while writing the metadata file
        writeTask(store, JOB, 3, "task-0");
        Files.write(checkpointFolder(JOB, 3).resolve("._checkpoint." + "0f8fad5b-d9cb-469f-a165-70867728950e" + ".tmp"), "ONTULENC half a file".getBytes(UTF_8));

        CompletedCheckpoint latest = store.latestComplete(JOB).orElseThrow();
        assertThat(latest.checkpointId()).isEqualTo(1);
        assertThat(latest.metadata()).isEqualTo(Map.of("checkpoint", "1"));
        assertThat(store.completedCheckpointIds(JOB)).containsExactly(1L);
        assertThat(store.completedCheckpoint(JOB, 2)).isEmpty();
        assertThat(store.completedCheckpoint(JOB, 3)).isEmpty();

        // completing a newer checkpoint deletes the abandoned older ones
        writeTask(store, JOB, 4, "task-0");
        store.complete(JOB, 4, Map.of());
        assertThat(store.latestComplete(JOB).orElseThrow().checkpointId()).isEqualTo(4);
        assertThat(fileNames(jobFolder(JOB))).containsExactlyInAnyOrder("1", "4");
    }

    @Test
    public void completeKeepsTheNewestCheckpoints()
            throws IOException
    {
        CheckpointStore store = store(3);
        for (long id = 1; id <= 5; id++) {
            writeTask(store, JOB, id, "task-0");
            store.complete(JOB, id, Map.of());
        }
        assertThat(store.completedCheckpointIds(JOB)).containsExactly(3L, 4L, 5L);
        assertThat(fileNames(jobFolder(JOB))).containsExactlyInAnyOrder("3", "4", "5");

        // a newer checkpoint still being written survives retention
        writeTask(store, JOB, 6, "task-0");
        assertThat(store.retain(JOB, 1)).isEqualTo(2);
        assertThat(store.completedCheckpointIds(JOB)).containsExactly(5L);
        assertThat(fileNames(jobFolder(JOB))).containsExactlyInAnyOrder("5", "6");
        assertReadsBack(store.latestComplete(JOB).orElseThrow().task("task-0").orElseThrow(), 5);
        assertThat(store.retain("other_job", 1)).isZero();
        assertThatThrownBy(() -> store.retain(JOB, 0)).hasMessage("count must be at least 1: 0");
    }

    @Test
    public void retainedCountComesFromTheConfiguration()
    {
        CheckpointStore store = store(1);
        for (long id = 1; id <= 3; id++) {
            writeTask(store, JOB, id * 10, "task-0");
            store.complete(JOB, id * 10, Map.of());
        }
        assertThat(store.completedCheckpointIds(JOB)).containsExactly(30L);
    }

    @Test
    public void deleteJobRemovesEverything()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        store.complete(JOB, 1, Map.of());
        writeTask(store, JOB, 2, "task-0");
        writeTask(store, "other_job", 7, "task-0");
        store.complete("other_job", 7, Map.of());

        store.deleteJob(JOB);
        assertThat(Files.exists(jobFolder(JOB))).isFalse();
        assertThat(store.latestComplete(JOB)).isEmpty();
        assertThat(store.completedCheckpointIds(JOB)).isEmpty();
        assertThat(store.jobs()).containsExactly("other_job");
        assertThat(fileNames(checkpointsFolder())).containsExactly("other_job");
        assertReadsBack(store.latestComplete("other_job").orElseThrow().task("task-0").orElseThrow(), 7);

        store.deleteJob(JOB);
        store.deleteJob("never_existed");
    }

    @Test
    public void openingSweepsAnInterruptedJobDeletion()
            throws IOException
    {
        Path left = checkpointsFolder().resolve(".deleted-" + JOB + "-1234/1/_checkpoint");
        Files.createDirectories(left.getParent());
        Files.writeString(left, "left by a killed process");
        CheckpointStore store = store();
        assertThat(fileNames(checkpointsFolder())).isEmpty();
        assertThat(store.jobs()).isEmpty();
    }

    @Test
    public void cleanUpDeletesIncompleteCheckpoints()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        store.complete(JOB, 1, Map.of());
        writeTask(store, JOB, 2, "task-0");
        TaskSnapshotWriter unfinished = store.taskSnapshot(JOB, 3, "task-0");
        try (VectorSchemaRoot batch = windowBatch("task-0", 0, 10)) {
            unfinished.stream("window-state", WINDOW_STATE).write(batch);
        }

        assertThat(store.cleanUpIncomplete(JOB)).isEqualTo(2);
        unfinished.close();
        assertThat(fileNames(jobFolder(JOB))).containsExactly("1");
        assertThat(store.completedCheckpointIds(JOB)).containsExactly(1L);
        assertReadsBack(store.latestComplete(JOB).orElseThrow().task("task-0").orElseThrow(), 1);
        assertThat(store.cleanUpIncomplete(JOB)).isZero();
        assertThat(store.cleanUpIncomplete("never_existed")).isZero();
    }

    @Test
    public void tamperedStateFileFailsNamingIt()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        writeTask(store, JOB, 1, "task-1");
        store.complete(JOB, 1, Map.of());
        Path file = taskFolder(JOB, 1, "task-1").resolve("window-state.arrow");
        flipByte(file, Files.size(file) / 2);

        TaskSnapshot task = store.latestComplete(JOB).orElseThrow().task("task-1").orElseThrow();
        assertThatThrownBy(() -> readRows(task, "window-state"))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("Cannot read checkpoint file ")
                .hasMessageContaining(file.toString())
                .hasMessageContaining(encrypted() ? "failed authentication" : "checksum");
        // the other files are intact
        assertReadsBack(store.latestComplete(JOB).orElseThrow().task("task-0").orElseThrow(), 1);
    }

    @Test
    public void tamperedMetadataFileFailsNamingIt()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        store.complete(JOB, 1, Map.of());
        writeTask(store, JOB, 2, "task-0");
        store.complete(JOB, 2, Map.of("offsets", "x".repeat(5000)));
        Path file = checkpointFolder(JOB, 2).resolve("_checkpoint");
        flipByte(file, Files.size(file) - 40);

        // never a silent fall-back to checkpoint 1
        assertThatThrownBy(() -> store.latestComplete(JOB))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString());
        assertThatThrownBy(() -> store.completedCheckpoint(JOB, 2))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString());
        assertThat(store.completedCheckpoint(JOB, 1)).isPresent();
    }

    @Test
    public void truncatedMetadataFileFailsNamingIt()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        store.complete(JOB, 1, Map.of());
        Path file = checkpointFolder(JOB, 1).resolve("_checkpoint");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 10));
        assertThatThrownBy(() -> store.latestComplete(JOB))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString());
    }

    @Test
    public void tamperedTaskMetadataFailsCompletion()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        writeTask(store, JOB, 1, "task-1");
        Path file = taskFolder(JOB, 1, "task-1").resolve("_task");
        flipByte(file, Files.size(file) - 20);
        assertThatThrownBy(() -> store.complete(JOB, 1, Map.of()))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString());
        assertThat(store.latestComplete(JOB)).isEmpty();
    }

    @Test
    public void movedStateFileIsRefused()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        writeTask(store, JOB, 1, "task-1");
        store.complete(JOB, 1, Map.of());
        Path file = taskFolder(JOB, 1, "task-1").resolve("window-state.arrow");
        Files.copy(taskFolder(JOB, 1, "task-0").resolve("window-state.arrow"), file, StandardCopyOption.REPLACE_EXISTING);

        TaskSnapshot task = store.latestComplete(JOB).orElseThrow().task("task-1").orElseThrow();
        assertThatThrownBy(() -> readRows(task, "window-state"))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageEndingWith(": holds state stream window-state of task task-0 of checkpoint 1 of job " + JOB
                        + ", not state stream window-state of task task-1 of checkpoint 1 of job " + JOB + " (the file was moved or replaced)")
                .hasMessageContaining(file.toString());
    }

    @Test
    public void missingStateFileIsReported()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        store.complete(JOB, 1, Map.of());
        Path file = taskFolder(JOB, 1, "task-0").resolve("pending-commits.arrow");
        Files.delete(file);
        TaskSnapshot task = store.latestComplete(JOB).orElseThrow().task("task-0").orElseThrow();
        assertThatThrownBy(() -> readRows(task, "pending-commits"))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageEndingWith(": file is missing");
        assertThatThrownBy(() -> task.openStream("no-such-stream", allocator))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Task task-0 of checkpoint 1 of job " + JOB + " has no state stream no-such-stream; it has [window-state, pending-commits]");
    }

    @Test
    public void checkpointIdsMustIncrease()
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 5, "task-0");
        store.complete(JOB, 5, Map.of());
        writeTask(store, JOB, 3, "task-0");
        assertThatThrownBy(() -> store.complete(JOB, 3, Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Checkpoint 3 of job " + JOB + " cannot be completed: checkpoint 5 is already complete, and checkpoint ids must increase");
        assertThatThrownBy(() -> store.complete(JOB, 5, Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Checkpoint 5 of job " + JOB + " is already complete");
        assertThatThrownBy(() -> store.taskSnapshot(JOB, 5, "task-1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Checkpoint 5 of job " + JOB + " is already complete: its task snapshots cannot change");
        assertThat(store.latestComplete(JOB).orElseThrow().checkpointId()).isEqualTo(5);
        writeTask(store, JOB, 6, "task-0");
        assertThat(store.complete(JOB, 6, Map.of()).checkpointId()).isEqualTo(6);
    }

    @Test
    public void restartedStoreSeesTheSameCheckpoints()
            throws IOException
    {
        CheckpointStore first = store();
        writeTask(first, JOB, 1, "task-0");
        first.complete(JOB, 1, Map.of());
        writeTask(first, JOB, 2, "task-0");
        writeTask(first, JOB, 2, "task-1");
        first.complete(JOB, 2, Map.of("epoch", "2"));
        writeTask(first, JOB, 3, "task-0");
        first.close();

        // as after a restart: a new key management service over the same key directory
        streams = streams(temporary.resolve("kms"));
        CheckpointStore second = store();
        assertThat(second.cleanUpIncomplete(JOB)).isEqualTo(1);
        CompletedCheckpoint latest = second.latestComplete(JOB).orElseThrow();
        assertThat(latest.checkpointId()).isEqualTo(2);
        assertThat(latest.metadata()).isEqualTo(Map.of("epoch", "2"));
        assertThat(latest.taskIds()).containsExactly("task-0", "task-1");
        assertReadsBack(latest.task("task-1").orElseThrow(), 2);
        writeTask(second, JOB, 3, "task-0");
        assertThat(second.complete(JOB, 3, Map.of()).checkpointId()).isEqualTo(3);
    }

    @Test
    @Timeout(60)
    public void tasksWriteConcurrently()
            throws Exception
    {
        CheckpointStore store = store();
        int tasks = 8;
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            for (long id = 1; id <= 2; id++) {
                long checkpointId = id;
                List<Future<?>> futures = new ArrayList<>();
                for (int task = 0; task < tasks; task++) {
                    String taskId = "task-" + task;
                    futures.add(executor.submit(() -> writeTask(store, JOB, checkpointId, taskId)));
                }
                for (Future<?> future : futures) {
                    future.get(30, TimeUnit.SECONDS);
                }
                store.complete(JOB, checkpointId, Map.of());
            }
        }
        finally {
            executor.shutdownNow();
        }
        assertCheckpoint(store.latestComplete(JOB).orElseThrow(), 2, tasks);
    }

    @Test
    public void unfinishedTaskBlocksCompletion()
            throws IOException
    {
        CheckpointStore store = store();
        writeTask(store, JOB, 1, "task-0");
        TaskSnapshotWriter unfinished = store.taskSnapshot(JOB, 1, "task-1");
        try (VectorSchemaRoot batch = windowBatch("task-1", 0, 10)) {
            unfinished.stream("window-state", WINDOW_STATE).write(batch);
        }
        assertThatThrownBy(() -> store.complete(JOB, 1, Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Task task-1 of checkpoint 1 of job " + JOB + " has not finished its snapshot: the checkpoint cannot be completed");

        // the task failed: closing its writer deletes what it wrote
        unfinished.close();
        assertThat(Files.exists(taskFolder(JOB, 1, "task-1"))).isFalse();
        assertThat(store.complete(JOB, 1, Map.of()).taskIds()).containsExactly("task-0");
    }

    @Test
    public void writerKeepsItsProtocol()
    {
        CheckpointStore store = store();
        try (TaskSnapshotWriter writer = store.taskSnapshot(JOB, 1, "task-0")) {
            StateStreamWriter stream = writer.stream("window-state", WINDOW_STATE);
            assertThatThrownBy(() -> writer.stream("window-state", WINDOW_STATE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("State stream window-state of task task-0 of checkpoint 1 of job " + JOB + " is already open");
            try (VectorSchemaRoot batch = commitsBatch("task-0", 0, 3)) {
                assertThatThrownBy(() -> stream.write(batch))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("Batch schema ");
            }
            // nothing was written: the stream goes on
            try (VectorSchemaRoot batch = windowBatch("task-0", 0, 5)) {
                stream.write(batch);
            }
            stream.finish();
            try (VectorSchemaRoot batch = windowBatch("task-0", 5, 1)) {
                assertThatThrownBy(() -> stream.write(batch))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage("State stream window-state is finished");
            }
            assertThat(stream.rows()).isEqualTo(5);
            assertThat(stream.batches()).isEqualTo(1);
            // the writer fails before finishing: everything it wrote goes
        }
        assertThat(Files.exists(taskFolder(JOB, 1, "task-0"))).isFalse();

        writeTask(store, JOB, 1, "task-0");
        assertThatThrownBy(() -> store.taskSnapshot(JOB, 1, "task-0"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Task task-0 of checkpoint 1 of job " + JOB + " is already written");
        TaskSnapshotWriter writer = store.taskSnapshot(JOB, 1, "task-1");
        writer.finish(Map.of());
        assertThatThrownBy(() -> writer.stream("late", WINDOW_STATE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The snapshot of task task-1 of checkpoint 1 of job " + JOB + " is finished");
        writer.close();
        assertThat(store.complete(JOB, 1, Map.of()).taskIds()).containsExactly("task-0", "task-1");
    }

    @Test
    public void emptyTasksStreamsAndCheckpointsRoundTrip()
    {
        CheckpointStore store = store();
        try (TaskSnapshotWriter writer = store.taskSnapshot(JOB, 1, "task-0")) {
            writer.stream("window-state", WINDOW_STATE);
            writer.finish(Map.of());
        }
        try (TaskSnapshotWriter writer = store.taskSnapshot(JOB, 1, "task-1")) {
            writer.finish(Map.of("offset", ""));
        }
        store.complete(JOB, 1, Map.of());
        CompletedCheckpoint checkpoint = store.latestComplete(JOB).orElseThrow();
        assertThat(checkpoint.metadata()).isEmpty();
        TaskSnapshot task = checkpoint.task("task-0").orElseThrow();
        assertThat(task.streams()).containsExactly(new StateStreamSummary("window-state", 0, 0));
        try (StateStreamReader reader = task.openStream("window-state", allocator)) {
            assertThat(reader.schema()).isEqualTo(WINDOW_STATE);
            assertThat(reader.next()).isNull();
            assertThat(reader.next()).isNull();
        }
        assertThat(checkpoint.task("task-1").orElseThrow().metadata()).isEqualTo(Map.of("offset", ""));
        assertThat(checkpoint.task("task-1").orElseThrow().streams()).isEmpty();
        assertThat(checkpoint.task("task-2")).isEmpty();

        // a checkpoint of a job without tasks
        store.complete("no_tasks", 0, Map.of("only", "metadata"));
        assertThat(store.latestComplete("no_tasks").orElseThrow().tasks()).isEmpty();
    }

    @Test
    public void namesAreChecked()
            throws IOException
    {
        CheckpointStore store = store();
        for (String job : List.of("a/b", "..", ".hidden", "", "a b", "x".repeat(201), "-dash")) {
            assertThatThrownBy(() -> store.latestComplete(job))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessageStartingWith("Invalid streaming job name '" + job + "'");
        }
        assertThatThrownBy(() -> store.deleteJob("../" + JOB))
                .hasMessage("Invalid streaming job name '../" + JOB + "': use 1 to 200 letters, digits, '_', '-' or '.', starting with a letter, digit or '_'");
        assertThatThrownBy(() -> store.taskSnapshot(JOB, 1, "task/0")).hasMessageStartingWith("Invalid task id 'task/0'");
        assertThatThrownBy(() -> store.taskSnapshot(JOB, -1, "task-0"))
                .hasMessage("Invalid checkpoint id -1 of job " + JOB + ": checkpoint ids are not negative");
        try (TaskSnapshotWriter writer = store.taskSnapshot(JOB, 1, "task-0")) {
            assertThatThrownBy(() -> writer.stream("../escape", WINDOW_STATE)).hasMessageStartingWith("Invalid state stream name '../escape'");
        }
        assertThat(fileNames(checkpointsFolder())).containsExactly(JOB);
    }

    protected CheckpointStore store()
    {
        return store(CheckpointConfig.DEFAULT_RETAINED);
    }

    protected CheckpointStore store(int retained)
    {
        CheckpointStore store = CheckpointStore.open(new CheckpointConfig(baseDirectory(temporary.resolve("exchange")), retained, Map.of()), streams);
        stores.add(store);
        return store;
    }

    protected Path checkpointsFolder()
    {
        return temporary.resolve("exchange").resolve("checkpoints");
    }

    protected Path jobFolder(String job)
    {
        return checkpointsFolder().resolve(job);
    }

    protected Path checkpointFolder(String job, long checkpointId)
    {
        return jobFolder(job).resolve(Long.toString(checkpointId));
    }

    protected Path taskFolder(String job, long checkpointId, String taskId)
    {
        return checkpointFolder(job, checkpointId).resolve("tasks").resolve(taskId);
    }

    /** Writes a task snapshot with two streams of {@link #BATCH_ROWS} batches each, interleaved. */
    protected void writeTask(CheckpointStore store, String job, long checkpointId, String taskId)
    {
        try (TaskSnapshotWriter writer = store.taskSnapshot(job, checkpointId, taskId)) {
            StateStreamWriter window = writer.stream("window-state", WINDOW_STATE);
            StateStreamWriter commits = writer.stream("pending-commits", PENDING_COMMITS);
            long first = checkpointId * 1_000_000;
            for (int rows : BATCH_ROWS) {
                try (VectorSchemaRoot batch = windowBatch(taskId, first, rows)) {
                    window.write(batch);
                }
                try (VectorSchemaRoot batch = commitsBatch(taskId, first, rows)) {
                    commits.write(batch);
                }
                first += rows;
            }
            writer.finish(taskMetadata(taskId, checkpointId));
        }
    }

    private void assertCheckpoint(CompletedCheckpoint checkpoint, long checkpointId, int tasks)
    {
        assertThat(checkpoint.job()).isEqualTo(JOB);
        assertThat(checkpoint.checkpointId()).isEqualTo(checkpointId);
        assertThat(checkpoint.taskIds()).isEqualTo(IntStream.range(0, tasks).mapToObj(task -> "task-" + task).toList());
        for (TaskSnapshot task : checkpoint.tasks()) {
            assertReadsBack(task, checkpointId);
        }
    }

    private void assertReadsBack(TaskSnapshot task, long checkpointId)
    {
        long rows = Arrays.stream(BATCH_ROWS).sum();
        assertThat(task.metadata()).isEqualTo(taskMetadata(task.taskId(), checkpointId));
        assertThat(task.streams()).containsExactly(
                new StateStreamSummary("window-state", BATCH_ROWS.length, rows),
                new StateStreamSummary("pending-commits", BATCH_ROWS.length, rows));
        assertThat(readRows(task, "window-state")).isEqualTo(expectedRows(task.taskId(), checkpointId, true));
        assertThat(readRows(task, "pending-commits")).isEqualTo(expectedRows(task.taskId(), checkpointId, false));
    }

    private List<String> expectedRows(String taskId, long checkpointId, boolean window)
    {
        List<String> rows = new ArrayList<>();
        long first = checkpointId * 1_000_000;
        for (int count : BATCH_ROWS) {
            try (VectorSchemaRoot batch = window ? windowBatch(taskId, first, count) : commitsBatch(taskId, first, count)) {
                rows.addAll(rowsOf(batch));
            }
            first += count;
        }
        return rows;
    }

    private List<String> readRows(TaskSnapshot task, String stream)
    {
        List<String> rows = new ArrayList<>();
        try (StateStreamReader reader = task.openStream(stream, allocator)) {
            for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
                try (VectorSchemaRoot batch = next) {
                    rows.addAll(rowsOf(batch));
                }
            }
        }
        return rows;
    }

    private static List<String> rowsOf(VectorSchemaRoot batch)
    {
        List<String> rows = new ArrayList<>(batch.getRowCount());
        for (int row = 0; row < batch.getRowCount(); row++) {
            StringBuilder text = new StringBuilder();
            for (int column = 0; column < batch.getFieldVectors().size(); column++) {
                Object value = batch.getVector(column).getObject(row);
                text.append(column == 0 ? "" : "|").append(value instanceof byte[] bytes ? Arrays.toString(bytes) : String.valueOf(value));
            }
            rows.add(text.toString());
        }
        return rows;
    }

    private static Map<String, String> taskMetadata(String taskId, long checkpointId)
    {
        return Map.of("source.orders.partition-0.offset", Long.toString(checkpointId * 100), "task", taskId);
    }

    private VectorSchemaRoot windowBatch(String taskId, long first, int rows)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(WINDOW_STATE, allocator);
        root.allocateNew();
        BigIntVector windowStart = (BigIntVector) root.getVector(0);
        VarCharVector key = (VarCharVector) root.getVector(1);
        BigIntVector total = (BigIntVector) root.getVector(2);
        for (int row = 0; row < rows; row++) {
            long id = first + row;
            windowStart.setSafe(row, id / 60 * 60_000);
            if (id % 7 == 3) {
                key.setNull(row);
            }
            else {
                key.setSafe(row, (taskId + "-customer-" + id + (id % 5 == 0 ? "-straße-✓" : "")).getBytes(UTF_8));
            }
            if (id % 5 == 1) {
                total.setNull(row);
            }
            else {
                total.setSafe(row, id * 31 - 17);
            }
        }
        root.setRowCount(rows);
        return root;
    }

    private VectorSchemaRoot commitsBatch(String taskId, long first, int rows)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(PENDING_COMMITS, allocator);
        root.allocateNew();
        VarCharVector sink = (VarCharVector) root.getVector(0);
        VarBinaryVector payload = (VarBinaryVector) root.getVector(1);
        for (int row = 0; row < rows; row++) {
            long id = first + row;
            sink.setSafe(row, ("iceberg.db.orders-" + taskId).getBytes(UTF_8));
            if (id % 4 == 2) {
                payload.setNull(row);
            }
            else {
                payload.setSafe(row, ("data-file-" + id + ".parquet").getBytes(UTF_8));
            }
        }
        root.setRowCount(rows);
        return root;
    }

    private static List<String> fileNames(Path folder)
            throws IOException
    {
        try (Stream<Path> children = Files.list(folder)) {
            return children.map(child -> child.getFileName().toString()).toList();
        }
    }

    private static void flipByte(Path file, long position)
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(file);
        bytes[Math.toIntExact(position)] ^= 0x40;
        Files.write(file, bytes);
    }
}
