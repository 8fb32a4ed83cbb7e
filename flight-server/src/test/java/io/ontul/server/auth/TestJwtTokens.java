package io.ontul.server.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.nimbusds.jwt.SignedJWT;

import io.ontul.engine.api.EngineConfig;
import io.ontul.spi.OntulException;

class TestJwtTokens
{
    private static final Instant NOW = Instant.parse("2030-05-01T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    @TempDir
    Path dataDirectory;

    @Test
    void tokenCarriesUserTimesAndARandomId()
            throws Exception
    {
        JwtTokens tokens = new JwtTokens(TokenSecret.random(), Duration.ofMinutes(30), CLOCK);
        String first = tokens.issue("ada");
        String second = tokens.issue("ada");
        assertThat(first).isNotEqualTo(second);

        SignedJWT jwt = SignedJWT.parse(first);
        assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("HS256");
        assertThat(jwt.getJWTClaimsSet().getSubject()).isEqualTo("ada");
        assertThat(jwt.getJWTClaimsSet().getIssueTime().toInstant()).isEqualTo(NOW);
        assertThat(jwt.getJWTClaimsSet().getExpirationTime().toInstant()).isEqualTo(NOW.plus(Duration.ofMinutes(30)));

        VerifiedToken verified = tokens.verify(first);
        assertThat(verified.user()).isEqualTo("ada");
        assertThat(verified.expiresAt()).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
        assertThat(verified.id()).hasSizeGreaterThanOrEqualTo(20).isNotEqualTo(tokens.verify(second).id());
    }

    @Test
    void expiredTokenNamesTheExpiry()
    {
        TokenSecret secret = TokenSecret.random();
        String token = new JwtTokens(secret, Duration.ofHours(1), Clock.fixed(NOW.minus(Duration.ofHours(2)), ZoneOffset.UTC)).issue("ada");
        assertThatThrownBy(() -> new JwtTokens(secret, Duration.ofHours(1), CLOCK).verify(token))
                .isInstanceOf(InvalidTokenException.class)
                .hasMessage("Token expired at 2030-05-01T09:00:00Z; log in again");
    }

    @Test
    void tokenOfAnotherSecretIsInvalid()
    {
        String token = new JwtTokens(TokenSecret.random(), Duration.ofHours(1), CLOCK).issue("ada");
        assertThatThrownBy(() -> new JwtTokens(TokenSecret.random(), Duration.ofHours(1), CLOCK).verify(token))
                .isInstanceOf(InvalidTokenException.class)
                .hasMessageStartingWith("Invalid token: the signature does not match");
    }

    @Test
    void alteredAndMalformedTokensAreInvalid()
    {
        JwtTokens tokens = new JwtTokens(TokenSecret.random(), Duration.ofHours(1), CLOCK);
        String[] parts = tokens.issue("ada").split("\\.");
        String otherUser = Base64.getUrlEncoder().withoutPadding().encodeToString(
                new String(Base64.getUrlDecoder().decode(parts[1]), UTF_8).replace("\"ada\"", "\"admin\"").getBytes(UTF_8));
        assertThatThrownBy(() -> tokens.verify(parts[0] + "." + otherUser + "." + parts[2]))
                .hasMessageStartingWith("Invalid token: the signature does not match");

        String none = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes(UTF_8));
        assertThatThrownBy(() -> tokens.verify(none + "." + parts[1] + "."))
                .hasMessageStartingWith("Invalid token: not a signed JSON Web Token");
        String hs512 = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"HS512\"}".getBytes(UTF_8));
        assertThatThrownBy(() -> tokens.verify(hs512 + "." + parts[1] + "." + parts[2]))
                .hasMessageStartingWith("Invalid token: algorithm HS512 is not accepted");
        assertThatThrownBy(() -> tokens.verify("0a1b2c3d"))
                .hasMessageStartingWith("Invalid token: not a signed JSON Web Token");
    }

    @Test
    void secretIsCreatedOwnerOnlyAndReused()
            throws Exception
    {
        TokenSecret created = TokenSecret.loadOrCreate(dataDirectory);
        Path file = dataDirectory.resolve(TokenSecret.FILE_NAME);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Base64.getDecoder().decode(Files.readString(file).trim())).hasSize(32);
        try (var files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }

        String token = new JwtTokens(created, Duration.ofHours(1), CLOCK).issue("ada");
        String content = Files.readString(file);
        TokenSecret reloaded = TokenSecret.loadOrCreate(dataDirectory);
        assertThat(Files.readString(file)).isEqualTo(content);
        assertThat(new JwtTokens(reloaded, Duration.ofHours(1), CLOCK).verify(token).user()).isEqualTo("ada");
    }

    @Test
    void secretTooShortIsRefused()
            throws Exception
    {
        Path file = dataDirectory.resolve(TokenSecret.FILE_NAME);
        Files.createDirectories(file.getParent());
        Files.writeString(file, Base64.getEncoder().encodeToString(new byte[8]));
        assertThatThrownBy(() -> TokenSecret.loadOrCreate(dataDirectory))
                .hasMessageContaining("fewer than 32")
                .hasMessageContaining("delete it");
    }

    @Test
    void timeToLiveParses()
    {
        assertThat(ttl("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(ttl("30m")).isEqualTo(Duration.ofMinutes(30));
        assertThat(ttl("12h")).isEqualTo(Duration.ofHours(12));
        assertThat(ttl("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(ttl(" 2 H ")).isEqualTo(Duration.ofHours(2));
        assertThat(AuthenticationConfig.from(EngineConfig.embeddedDefaults()).tokenTimeToLive()).isEqualTo(Duration.ofHours(12));
        for (String invalid : new String[] {"12", "0h", "-1h", "1w", "h", "1.5h", "99999999999999999999d"}) {
            assertThatThrownBy(() -> ttl(invalid))
                    .isInstanceOf(OntulException.class)
                    .hasMessageContaining("Invalid ontul.auth.token-ttl '" + invalid + "'")
                    .hasMessageContaining("30m, 12h or 1d");
        }
    }

    private static Duration ttl(String value)
    {
        return AuthenticationConfig.from(new EngineConfig(Map.of(AuthenticationConfig.TOKEN_TTL, value), Map.of())).tokenTimeToLive();
    }
}
