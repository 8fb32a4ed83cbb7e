package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Date;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * Bearer tokens as JSON Web Tokens signed with HMAC-SHA256 (HS256). A token carries the user
 * ({@code sub}) and the id the user got when it was created ({@code uid}: a user dropped and
 * created again under the same name gets another, so it does not inherit the old user's tokens),
 * when it was issued ({@code iat}), when it expires ({@code exp}) and a random id ({@code jti}),
 * so two logins of one user never get the same token. Nothing is stored on the
 * server: any token signed with the same {@link TokenSecret} verifies, also after a restart.
 */
public final class JwtTokens
{
    private static final int ID_BYTES = 16;
    static final String USER_ID_CLAIM = "uid";

    private final MACSigner signer;
    private final MACVerifier verifier;
    private final Duration timeToLive;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public JwtTokens(TokenSecret secret, Duration timeToLive, Clock clock)
    {
        requireNonNull(secret, "secret is null");
        this.timeToLive = requireNonNull(timeToLive, "timeToLive is null");
        this.clock = requireNonNull(clock, "clock is null");
        try {
            this.signer = new MACSigner(secret.key());
            this.verifier = new MACVerifier(secret.key());
        }
        catch (JOSEException e) {
            throw new IllegalArgumentException("Unusable token secret: " + e.getMessage(), e);
        }
    }

    /** A new signed token for {@code user} without a user id (as tokens of users created before ids existed). */
    public String issue(String user)
    {
        return issue(user, "");
    }

    /** A new signed token for {@code user}, whose id is {@code userId}, valid for the configured time to live. */
    public String issue(String user, String userId)
    {
        requireNonNull(user, "user is null");
        requireNonNull(userId, "userId is null");
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        byte[] id = new byte[ID_BYTES];
        random.nextBytes(id);
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .subject(user)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(timeToLive)))
                .jwtID(Base64.getUrlEncoder().withoutPadding().encodeToString(id))
                .claim(USER_ID_CLAIM, userId)
                .build();
        SignedJWT token = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        try {
            token.sign(signer);
        }
        catch (JOSEException e) {
            throw new IllegalStateException("Cannot sign a token: " + e.getMessage(), e);
        }
        return token.serialize();
    }

    /**
     * Checks the signature, the algorithm and the expiry of {@code token}.
     *
     * @throws InvalidTokenException with a message for the client: "Invalid token: ..." or
     *         "Token expired at ...; log in again"
     */
    public VerifiedToken verify(String token)
            throws InvalidTokenException
    {
        requireNonNull(token, "token is null");
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        }
        catch (ParseException e) {
            throw new InvalidTokenException("Invalid token: not a signed JSON Web Token; log in again");
        }
        if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm())) {
            throw new InvalidTokenException("Invalid token: algorithm " + jwt.getHeader().getAlgorithm() + " is not accepted; log in again");
        }
        boolean signed;
        try {
            signed = jwt.verify(verifier);
        }
        catch (JOSEException e) {
            signed = false;
        }
        if (!signed) {
            throw new InvalidTokenException("Invalid token: the signature does not match (issued by another server, or by this one before its token secret changed); log in again");
        }
        String user = claims.getSubject();
        String id = claims.getJWTID();
        Date issuedAt = claims.getIssueTime();
        Date expiresAt = claims.getExpirationTime();
        if (user == null || id == null || issuedAt == null || expiresAt == null) {
            throw new InvalidTokenException("Invalid token: it lacks one of the claims sub, jti, iat, exp; log in again");
        }
        if (!clock.instant().isBefore(expiresAt.toInstant())) {
            throw new InvalidTokenException("Token expired at " + expiresAt.toInstant() + "; log in again");
        }
        Object userId = claims.getClaim(USER_ID_CLAIM);
        return new VerifiedToken(user, userId instanceof String text ? text : "", id, issuedAt.toInstant(), expiresAt.toInstant());
    }
}
