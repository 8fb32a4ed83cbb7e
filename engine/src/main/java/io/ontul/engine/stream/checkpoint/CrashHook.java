package io.ontul.engine.stream.checkpoint;

/**
 * Where the checkpoint protocol tells tests that it reached one of its steps (the points of
 * {@link CrashPoints}); a test hook may end the job or the process there. The production hook,
 * {@link #NONE}, does nothing unless the crash-point system property is set.
 */
@FunctionalInterface
public interface CrashHook
{
    CrashHook NONE = CrashPoints::reached;

    void reached(String point);
}
