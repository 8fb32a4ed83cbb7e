package io.ontul.spi.stream;

import static java.util.Objects.requireNonNull;

/**
 * One independently positioned part of a stream, such as a Kafka partition, with the position a
 * job that has never read it starts from (the table's startup mode).
 *
 * @param id stable name of the split, such as {@code "3"} for partition 3; the engine keys saved
 * positions by it
 * @param startPosition opaque position, see {@link StreamSourceProvider}
 */
public record StreamSplit(String id, byte[] startPosition)
{
    public StreamSplit
    {
        requireNonNull(id, "id is null");
        startPosition = requireNonNull(startPosition, "startPosition is null").clone();
    }

    @Override
    public byte[] startPosition()
    {
        return startPosition.clone();
    }
}
