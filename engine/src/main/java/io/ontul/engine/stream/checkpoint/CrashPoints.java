package io.ontul.engine.stream.checkpoint;



/**
 * Test-only crash injection. When the system property {@value #PROPERTY} names a point a job
 * reaches, the job dies there as if its process had been killed: it clears the property (so that
 * one setting crashes one job once), persists nothing, takes no checkpoint and leaves its stored
 * state as it was; the next engine start resumes it. Points: {@value #AFTER_PREPARE_COMMIT},
 * {@value #BEFORE_CHECKPOINT_COMPLETE} (state written, checkpoint not complete yet),
 * {@value #AFTER_CHECKPOINT_COMPLETE}, {@value #AFTER_SINK_COMMIT}. With the suffix
 * {@value #HALT} (such as {@code after-sink-commit:halt}) the whole process halts there instead,
 * with exit code 137 and no shutdown hooks, as {@code kill -9} would end it.
 */
public final class CrashPoints
{
    public static final String PROPERTY = "ontul.streaming.test.crash-point";
    public static final String AFTER_PREPARE_COMMIT = "after-prepare-commit";
    public static final String BEFORE_CHECKPOINT_COMPLETE = "before-checkpoint-complete";
    public static final String AFTER_CHECKPOINT_COMPLETE = "after-checkpoint-complete";
    public static final String AFTER_SINK_COMMIT = "after-sink-commit";
    public static final String HALT = ":halt";

    private CrashPoints() {}

    public static void reached(String point)
    {
        boolean halt;
        synchronized (CrashPoints.class) {
            String wanted = System.getProperty(PROPERTY);
            halt = (point + HALT).equals(wanted);
            if (!point.equals(wanted) && !halt) {
                return;
            }
            System.clearProperty(PROPERTY);
        }
        if (halt) {
            System.err.println("Ontul: halting at streaming crash point " + point);
            System.err.flush();
            Runtime.getRuntime().halt(137);
        }
        throw new SimulatedCrash(point);
    }

    /** Thrown at a crash point; the job ends without touching durable state. */
    public static final class SimulatedCrash
            extends RuntimeException
    {
        public SimulatedCrash(String point)
        {
            super("simulated crash " + point, null, false, false);
        }
    }
}
