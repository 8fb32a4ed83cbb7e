package io.ontul.engine.security;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Successful password checks, remembered for a while so that clients reconnecting again and
 * again (a BI tool opens a connection per query) do not pay a PBKDF2 derivation each time, as
 * Trino's password authenticator cache does. An entry holds an HMAC of the password under a key
 * that lives only in this process, never the password, and counts only while the user's stored
 * hash is the one it was checked against: a changed password or a dropped user ends it. At most
 * {@code maxEntries} users are remembered, the least recently used dropped first.
 */
final class VerifiedPasswordCache
{
    private record Entry(String storedHash, byte[] passwordMac, long expiresAtNanos) {}

    private final Map<String, Entry> entries;
    private final long timeToLiveNanos;
    private final LongSupplier nanoTime;
    private final byte[] key = new byte[32];

    VerifiedPasswordCache(int maxEntries, Duration timeToLive, LongSupplier nanoTime)
    {
        this.timeToLiveNanos = requireNonNull(timeToLive, "timeToLive is null").toNanos();
        this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
        new SecureRandom().nextBytes(key);
        this.entries = new LinkedHashMap<>(16, 0.75f, true)
        {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest)
            {
                return size() > maxEntries;
            }
        };
    }

    /** Whether {@code password} was verified for {@code user} against {@code storedHash} recently. */
    synchronized boolean contains(String user, String storedHash, String password)
    {
        Entry entry = entries.get(user);
        if (entry == null) {
            return false;
        }
        if (nanoTime.getAsLong() - entry.expiresAtNanos() >= 0 || !entry.storedHash().equals(storedHash)) {
            entries.remove(user);
            return false;
        }
        return MessageDigest.isEqual(entry.passwordMac(), mac(password));
    }

    synchronized void remember(String user, String storedHash, String password)
    {
        entries.put(user, new Entry(storedHash, mac(password), nanoTime.getAsLong() + timeToLiveNanos));
    }

    synchronized int size()
    {
        return entries.size();
    }

    private byte[] mac(String password)
    {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(password.getBytes(StandardCharsets.UTF_8));
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK lacks HmacSHA256", e);
        }
    }
}
