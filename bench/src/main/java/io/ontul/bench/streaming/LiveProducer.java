package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A thread that sends {@code rate} events per second (in bursts every 10 ms) to a topic, round
 * robin over its partitions, each with the wall-clock time (UTC) as its event time. It notes per
 * 10 s window when the broker acknowledged the window's last event, and what the windowed
 * aggregate over everything it sent must yield ({@link #expected()}, once stopped).
 */
final class LiveProducer
        implements AutoCloseable
{
    private static final long WINDOW = EventRecords.WINDOW_MILLIS;

    private final String topic;
    private final int partitions;
    private final int rate;
    private final KafkaProducer<String, String> producer;
    private final EventRecords events = new EventRecords();
    private final Map<Long, Long> lastAcknowledged = new ConcurrentHashMap<>();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Set<Long> groups = new HashSet<>();
    private final Thread thread;
    private volatile boolean producing = true;
    private volatile long lastEventTime = Long.MIN_VALUE;
    private long sent;
    private double totalSum;

    LiveProducer(String bootstrapServers, String topic, int partitions, int rate)
    {
        this.topic = requireNonNull(topic, "topic is null");
        this.partitions = partitions;
        this.rate = rate;
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new StringSerializer());
        this.thread = new Thread(this::produce, "live-producer");
    }

    void start()
    {
        thread.start();
    }

    /** Wall-clock time at which the broker acknowledged the last event of the window ending at {@code windowEnd}, if any was sent. */
    Long lastAcknowledged(long windowEnd)
    {
        return lastAcknowledged.get(windowEnd);
    }

    /** Event time of the last event sent so far. */
    long lastEventTime()
    {
        return lastEventTime;
    }

    void checkHealthy()
    {
        if (failure.get() != null) {
            throw new IllegalStateException("Producing failed", failure.get());
        }
    }

    /** Stops sending and waits until every event sent is acknowledged. */
    void stop()
            throws InterruptedException
    {
        producing = false;
        thread.join();
        checkHealthy();
    }

    /** After {@link #stop()}: the count of events sent. */
    long sent()
    {
        return sent;
    }

    /** After {@link #stop()}: the rows, sum(cnt) and sum(total) the windows of every event sent must hold. */
    ExpectedWindows expected()
    {
        return new ExpectedWindows(groups.size(), sent, totalSum);
    }

    /** After {@link #stop()}: one event per partition at {@code epochMillis}, to move every partition's watermark past the windows of the events sent. */
    void sendClosing(long epochMillis)
            throws Exception
    {
        List<Future<?>> acknowledgements = new ArrayList<>();
        for (int partition = 0; partition < partitions; partition++) {
            acknowledgements.add(producer.send(new ProducerRecord<>(topic, partition, null, events.json(-1 - partition, 0, EventRecords.CLOSING_AMOUNT, epochMillis))));
        }
        for (Future<?> acknowledgement : acknowledgements) {
            acknowledgement.get();
        }
    }

    private void produce()
    {
        int perTick = Math.max(1, rate / 100);
        long id = 0;
        try {
            long next = System.nanoTime();
            while (producing) {
                for (int i = 0; i < perTick; i++, id++) {
                    long eventTime = System.currentTimeMillis();
                    long windowEnd = (Math.floorDiv(eventTime, WINDOW) + 1) * WINDOW;
                    int category = EventRecords.category(id);
                    double amount = EventRecords.amount(id);
                    groups.add((windowEnd / WINDOW) * EventRecords.CATEGORIES + category);
                    totalSum += amount;
                    producer.send(new ProducerRecord<>(topic, (int) (id % partitions), null, events.json(id, category, amount, eventTime)), (metadata, exception) -> {
                        if (exception != null) {
                            failure.compareAndSet(null, exception);
                            return;
                        }
                        lastAcknowledged.merge(windowEnd, System.currentTimeMillis(), Math::max);
                    });
                    lastEventTime = eventTime;
                }
                next += 10_000_000L;
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                }
            }
            producer.flush();
        }
        catch (Exception e) {
            failure.compareAndSet(null, e);
        }
        sent = id;
    }

    @Override
    public void close()
    {
        producing = false;
        try {
            thread.join();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close();
    }
}
