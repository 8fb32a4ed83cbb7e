package io.ontul.bench.streaming;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.LongFunction;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Pre-fills a benchmark's Kafka topic: values round robin over its partitions, then a closing value per partition, all acknowledged. */
final class TopicFiller
{
    private TopicFiller() {}

    /**
     * Sends {@code value(i)} for i in [0, count) to partition {@code i % partitions}, then
     * {@code closing(partition)} to every partition, and waits until the broker acknowledged them all.
     *
     * @return the bytes of the {@code count} values
     */
    static long fill(String bootstrapServers, String topic, int partitions, long count, LongFunction<String> value, IntFunction<String> closing)
            throws IOException
    {
        Progress.log("Pre-filling topic %s: %,d events over %d partitions", topic, count, partitions);
        Map<String, Object> settings = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024,
                ProducerConfig.BUFFER_MEMORY_CONFIG, 256L * 1024 * 1024);
        AtomicReference<Exception> failure = new AtomicReference<>();
        long bytes = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer())) {
            Callback failed = (metadata, exception) -> {
                if (exception != null) {
                    failure.compareAndSet(null, exception);
                }
            };
            for (long i = 0; i < count; i++) {
                String text = value.apply(i);
                bytes += text.length();
                producer.send(new ProducerRecord<>(topic, (int) (i % partitions), null, text), failed);
                if ((i + 1) % 1_000_000 == 0) {
                    Progress.log("  %,d sent", i + 1);
                }
            }
            for (int partition = 0; partition < partitions; partition++) {
                producer.send(new ProducerRecord<>(topic, partition, null, closing.apply(partition)), failed);
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IOException("Pre-filling topic " + topic + " failed", failure.get());
        }
        return bytes;
    }
}
