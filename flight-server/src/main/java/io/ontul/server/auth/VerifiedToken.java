package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * The claims of a bearer token whose signature and expiry checked out.
 *
 * @param userId the id of the user the token was issued to ("" in tokens of users without one)
 */
public record VerifiedToken(String user, String userId, String id, Instant issuedAt, Instant expiresAt)
{
    public VerifiedToken
    {
        requireNonNull(user, "user is null");
        requireNonNull(userId, "userId is null");
        requireNonNull(id, "id is null");
        requireNonNull(issuedAt, "issuedAt is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }
}
