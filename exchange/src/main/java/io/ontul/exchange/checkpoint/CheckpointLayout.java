package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.util.OptionalLong;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.Path;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Where each file of the checkpoint store lives:
 *
 * <pre>
 * &lt;base&gt;/checkpoints/&lt;job&gt;/&lt;checkpoint id&gt;/_checkpoint                      checkpoint metadata, written last
 * &lt;base&gt;/checkpoints/&lt;job&gt;/&lt;checkpoint id&gt;/tasks/&lt;task&gt;/_task                task metadata, written last of the task
 * &lt;base&gt;/checkpoints/&lt;job&gt;/&lt;checkpoint id&gt;/tasks/&lt;task&gt;/&lt;stream&gt;.arrow      one state stream
 * </pre>
 *
 * Checkpoint ids are written in decimal. Job, task and stream names are checked to be plain file
 * names, so they can never reach outside their folder. Names starting with a dot are never valid:
 * temporary files and folders being deleted use them.
 */
final class CheckpointLayout
{
    static final String CHECKPOINTS = "checkpoints";
    static final String CHECKPOINT_METADATA = "_checkpoint";
    static final String TASKS = "tasks";
    static final String TASK_METADATA = "_task";
    static final String STATE_STREAM_SUFFIX = ".arrow";
    static final String DELETED_PREFIX = ".deleted-";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}");
    private static final Pattern CHECKPOINT_ID = Pattern.compile("0|[1-9][0-9]{0,18}");

    private final Path root;

    CheckpointLayout(Path root)
    {
        this.root = requireNonNull(root, "root is null");
    }

    /** The folder of all jobs: {@code <base>/checkpoints}. */
    Path root()
    {
        return root;
    }

    Path job(String job)
    {
        return new Path(root, checkJob(job));
    }

    Path checkpoint(String job, long checkpointId)
    {
        return new Path(job(job), Long.toString(checkCheckpointId(job, checkpointId)));
    }

    Path checkpointMetadata(String job, long checkpointId)
    {
        return new Path(checkpoint(job, checkpointId), CHECKPOINT_METADATA);
    }

    Path tasks(String job, long checkpointId)
    {
        return new Path(checkpoint(job, checkpointId), TASKS);
    }

    Path task(String job, long checkpointId, String taskId)
    {
        return new Path(tasks(job, checkpointId), checkTask(taskId));
    }

    Path taskMetadata(String job, long checkpointId, String taskId)
    {
        return new Path(task(job, checkpointId, taskId), TASK_METADATA);
    }

    Path stateStream(String job, long checkpointId, String taskId, String stream)
    {
        return new Path(task(job, checkpointId, taskId), checkStream(stream) + STATE_STREAM_SUFFIX);
    }

    /** The id a checkpoint folder is named after, or empty if the name is not one. */
    static OptionalLong checkpointId(String folderName)
    {
        if (!CHECKPOINT_ID.matcher(folderName).matches()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(folderName));
        }
        catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    static boolean isName(String name)
    {
        return NAME.matcher(name).matches();
    }

    static String checkJob(String job)
    {
        return checkName("streaming job name", job);
    }

    static String checkTask(String taskId)
    {
        return checkName("task id", taskId);
    }

    static String checkStream(String stream)
    {
        return checkName("state stream name", stream);
    }

    static long checkCheckpointId(String job, long checkpointId)
    {
        if (checkpointId < 0) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid checkpoint id %s of job %s: checkpoint ids are not negative", checkpointId, job);
        }
        return checkpointId;
    }

    private static String checkName(String kind, String name)
    {
        requireNonNull(name, kind + " is null");
        if (!isName(name)) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                    "Invalid %s '%s': use 1 to 200 letters, digits, '_', '-' or '.', starting with a letter, digit or '_'", kind, name);
        }
        return name;
    }
}
