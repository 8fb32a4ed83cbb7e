package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import io.ontul.spi.Split;

/**
 * The records of one partition in [startOffset, endOffset): the end is fixed when the query
 * starts, so a SELECT reads a bounded snapshot.
 *
 * @param malformedRecords where the readers of one scan count the records they skip
 */
public record KafkaSplit(KafkaTableDefinition table, String qualifiedName, int partition, long startOffset, long endOffset, KafkaMalformedRecords malformedRecords)
        implements Split
{
    public KafkaSplit
    {
        requireNonNull(table, "table is null");
        requireNonNull(qualifiedName, "qualifiedName is null");
        requireNonNull(malformedRecords, "malformedRecords is null");
        if (startOffset < 0 || endOffset < startOffset) {
            throw new IllegalArgumentException("Bad offset range [" + startOffset + ", " + endOffset + ")");
        }
    }

    @Override
    public String describe()
    {
        return "topic " + table.topic() + " partition " + partition + " offsets [" + startOffset + ", " + endOffset + ")";
    }
}
