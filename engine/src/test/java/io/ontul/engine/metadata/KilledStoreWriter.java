package io.ontul.engine.metadata;

import java.util.Map;
import java.util.Random;

import io.ontul.engine.api.EngineConfig;

/**
 * The process {@link TestH2MetadataStore#acknowledgedCommitsSurviveKills} kills: opens the store
 * at the URL it is given, prints {@code found <n>} (the counter the last process acknowledged),
 * writes entries of random sizes (churn, as a server's catalogs and jobs make), sets the counter
 * to its argument, prints {@code acked <n>} and waits to be killed.
 */
public final class KilledStoreWriter
{
    private KilledStoreWriter() {}

    public static void main(String[] args)
            throws InterruptedException
    {
        String url = args[0];
        long counter = Long.parseLong(args[1]);
        MetadataStore store = MetadataStore.open(new EngineConfig(Map.of(MetadataStore.URL, url, MetadataStore.POOL_SIZE, "2"), Map.of()));
        var entries = store.connectorStore("kill-test");
        System.out.println("found " + entries.get("counter", "value").orElse("none"));
        System.out.flush();
        Random random = new Random(counter);
        for (int i = random.nextInt(20); i > 0; i--) {
            entries.put("churn", String.valueOf(random.nextInt(50)), "x".repeat(random.nextInt(20_000)));
        }
        entries.put("counter", "value", String.valueOf(counter));
        System.out.println("acked " + counter);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
