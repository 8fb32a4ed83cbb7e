package io.ontul.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** DECIMAL division on unscaled longs against BigDecimal's, rounding half away from zero, at every sign and scale. */
class TestDecimalDivision
{
    @Test
    void matchesBigDecimal()
    {
        Random random = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            long a = switch (i % 4) {
                case 0 -> random.nextInt(2001) - 1000;
                case 1 -> random.nextLong() >> random.nextInt(64);
                case 2 -> i % 8 == 2 ? Long.MAX_VALUE - random.nextInt(3) : Long.MIN_VALUE + random.nextInt(3);
                default -> random.nextLong() % 1_000_000_000L;
            };
            long drawn = random.nextLong() >> random.nextInt(64);
            long b = drawn != 0 ? drawn : i % 2 == 0 ? 1 : -7;
            int scaleA = random.nextInt(7);
            int scaleB = random.nextInt(7);
            int resultScale = random.nextInt(13);
            BigDecimal exact = BigDecimal.valueOf(a, scaleA).divide(BigDecimal.valueOf(b, scaleB), resultScale, RoundingMode.HALF_UP);
            if (exact.unscaledValue().bitLength() > 63) {
                assertThatThrownBy(() -> Functions.decimalDivide(a, scaleA, b, scaleB, resultScale)).isSameAs(WideDecimals.REQUIRED);
            }
            else {
                assertThat(Functions.decimalDivide(a, scaleA, b, scaleB, resultScale)).as("%s/%s (%s, %s) at %s", a, b, scaleA, scaleB, resultScale)
                        .isEqualTo(exact.unscaledValue().longValueExact());
            }
        }
        // halves round away from zero
        assertThat(Functions.decimalDivide(1, 0, 2, 0, 0)).isEqualTo(1);
        assertThat(Functions.decimalDivide(-1, 0, 2, 0, 0)).isEqualTo(-1);
        assertThat(Functions.decimalDivide(5, 1, -2, 0, 1)).isEqualTo(-3);
        assertThat(Functions.decimalDivide(-5, 1, -2, 0, 1)).isEqualTo(3);
    }
}
