package io.ontul.bench;

/**
 * One way of reading a whole result in {@link FlightStreamBenchmark}. {@link #read()} starts the
 * query, reads every batch to the end and times it from the call that starts the query; it is
 * called many times, one call at a time.
 */
public interface StreamCase
{
    /** What is read and how, for the report. */
    String name();

    StreamRun read()
            throws Exception;
}
