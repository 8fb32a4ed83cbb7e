package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the malformed records the readers of one scan skip, and logs one WARN for the scan when
 * its last split is done, with the count and the first skipped record's partition and offset. A
 * scan cut short (LIMIT, cancel) before every split was read logs nothing. Counts also go to the
 * catalog's total ({@link KafkaConnector#skippedMalformedRecords()}).
 */
public final class KafkaMalformedRecords
{
    private static final Logger LOG = LoggerFactory.getLogger(KafkaMalformedRecords.class);

    private final String qualifiedName;
    private final String topic;
    private final AtomicLong catalogTotal;
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong splitsLeft;
    private String first;

    public KafkaMalformedRecords(String qualifiedName, String topic, int splits, AtomicLong catalogTotal)
    {
        this.qualifiedName = requireNonNull(qualifiedName, "qualifiedName is null");
        this.topic = requireNonNull(topic, "topic is null");
        this.catalogTotal = requireNonNull(catalogTotal, "catalogTotal is null");
        this.splitsLeft = new AtomicLong(splits);
    }

    /** A reader skipped a record. */
    public void skipped(int partition, long offset, String reason)
    {
        if (count.getAndIncrement() == 0) {
            synchronized (this) {
                first = "partition " + partition + " offset " + offset + " (" + reason + ")";
            }
        }
        catalogTotal.incrementAndGet();
    }

    /** A reader read its split to the end. */
    public void splitFinished()
    {
        if (splitsLeft.decrementAndGet() == 0 && count.get() > 0) {
            String firstRecord;
            synchronized (this) {
                firstRecord = first;
            }
            LOG.warn("Skipped {} malformed records of topic '{}' reading table {}; the first at {}. Set 'json.ignore-parse-errors' = 'false' to fail instead",
                    count.get(), topic, qualifiedName, firstRecord);
        }
    }

    /** Records skipped so far in this scan. */
    public long count()
    {
        return count.get();
    }
}
