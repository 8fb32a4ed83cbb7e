package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ontul.engine.api.EngineConfig;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** Authentication settings of the server ({@code ontul.auth.*} in {@code ontul.properties}). */
public record AuthenticationConfig(Duration tokenTimeToLive)
{
    public static final String TOKEN_TTL = "ontul.auth.token-ttl";
    public static final Duration DEFAULT_TOKEN_TTL = Duration.ofHours(12);

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*([smhd])");

    public AuthenticationConfig
    {
        requireNonNull(tokenTimeToLive, "tokenTimeToLive is null");
        if (tokenTimeToLive.isNegative() || tokenTimeToLive.isZero()) {
            throw new IllegalArgumentException("tokenTimeToLive must be positive: " + tokenTimeToLive);
        }
    }

    public static AuthenticationConfig from(EngineConfig config)
    {
        String value = config.property(TOKEN_TTL, null);
        return new AuthenticationConfig(value == null ? DEFAULT_TOKEN_TTL : parseDuration(TOKEN_TTL, value));
    }

    /** Parses a positive duration written as a number and a unit: {@code 90s}, {@code 30m}, {@code 12h}, {@code 1d}. */
    static Duration parseDuration(String key, String value)
    {
        Matcher matcher = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (matcher.matches()) {
            try {
                long amount = Long.parseLong(matcher.group(1));
                Duration duration = switch (matcher.group(2)) {
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
                if (!duration.isZero()) {
                    return duration;
                }
            }
            catch (ArithmeticException | NumberFormatException e) {
                // too large: reported below
            }
        }
        throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                "Invalid %s '%s': expected a positive number with unit s, m, h or d, e.g. 30m, 12h or 1d", key, value);
    }
}
