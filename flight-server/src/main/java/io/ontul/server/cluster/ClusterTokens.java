package io.ontul.server.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.ontul.server.auth.InvalidTokenException;
import io.ontul.server.auth.JwtTokens;
import io.ontul.server.auth.TokenSecret;

/**
 * How members of a cluster prove to each other that they know the shared cluster secret: every
 * call between nodes carries, in the header {@value #HEADER}, a short-lived JSON Web Token whose
 * subject is the calling node's id, signed (HS256) with a key derived from the secret. The secret
 * itself never travels. A user's token (signed with the server's own token secret) is not a
 * cluster token, and a cluster token is not a user's login.
 */
public final class ClusterTokens
{
    public static final String HEADER = "x-ontul-cluster-token";
    /** The peer identity of a call authenticated as a cluster member: user names cannot contain ':'. */
    public static final String NODE_IDENTITY_PREFIX = "node:";
    private static final Duration TIME_TO_LIVE = Duration.ofMinutes(5);
    private static final byte[] KEY_PURPOSE = "ontul cluster call token v1".getBytes(UTF_8);

    private final JwtTokens tokens;

    public ClusterTokens(String secret, Clock clock)
    {
        this.tokens = new JwtTokens(TokenSecret.of(derivedKey(secret)), TIME_TO_LIVE, clock);
    }

    /** HMAC-SHA256 of a fixed purpose under the secret: the signing key, never the secret itself. */
    private static byte[] derivedKey(String secret)
    {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(UTF_8), "HmacSHA256"));
            return mac.doFinal(KEY_PURPOSE);
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available: " + e.getMessage(), e);
        }
    }

    /** A fresh token for calls made by {@code nodeId}. */
    public String issue(String nodeId)
    {
        return tokens.issue(nodeId);
    }

    /**
     * @return the id of the node that signed {@code token}
     * @throws InvalidTokenException when it was not signed with this cluster's secret, or expired
     */
    public String verify(String token)
            throws InvalidTokenException
    {
        return tokens.verify(token).user();
    }

    /** The node id of a peer identity that {@link ClusterCallAuthenticator} gave a cluster member; empty for a user. */
    public static java.util.Optional<String> nodeOf(String peerIdentity)
    {
        return peerIdentity != null && peerIdentity.startsWith(NODE_IDENTITY_PREFIX)
                ? java.util.Optional.of(peerIdentity.substring(NODE_IDENTITY_PREFIX.length()))
                : java.util.Optional.empty();
    }
}
