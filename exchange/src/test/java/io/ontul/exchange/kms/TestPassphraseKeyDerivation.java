package io.ontul.exchange.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

public class TestPassphraseKeyDerivation
{
    private static final byte[] SALT = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Test
    void samePassphraseAndSaltGiveTheSameKey()
    {
        byte[] key = PassphraseKeyDerivation.deriveKey("passphrase", SALT, PassphraseKeyDerivation.MINIMUM_ITERATIONS);
        assertThat(key).hasSize(32);
        assertThat(PassphraseKeyDerivation.deriveKey("passphrase", SALT, PassphraseKeyDerivation.MINIMUM_ITERATIONS)).isEqualTo(key);
        assertThat(PassphraseKeyDerivation.deriveKey("passphrase", SALT.clone(), PassphraseKeyDerivation.MINIMUM_ITERATIONS)).isEqualTo(key);
        assertThat(PassphraseKeyDerivation.deriveKey("Passphrase", SALT, PassphraseKeyDerivation.MINIMUM_ITERATIONS)).isNotEqualTo(key);
        assertThat(PassphraseKeyDerivation.deriveKey("passphrase", "0123456789abcdeF".getBytes(java.nio.charset.StandardCharsets.US_ASCII), PassphraseKeyDerivation.MINIMUM_ITERATIONS)).isNotEqualTo(key);
        assertThat(PassphraseKeyDerivation.checkValue(key)).isEqualTo(PassphraseKeyDerivation.checkValue(key.clone())).isNotEqualTo(key);
    }

    @Test
    void iterationCountIsHigh()
    {
        assertThat(PassphraseKeyDerivation.ITERATIONS).isGreaterThanOrEqualTo(200_000);
        assertThat(PassphraseKeyDerivation.MINIMUM_ITERATIONS).isGreaterThanOrEqualTo(200_000);
        assertThatThrownBy(() -> PassphraseKeyDerivation.deriveKey("passphrase", SALT, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PBKDF2 needs at least 200000 iterations, not 1000");
    }
}
