package io.ontul.engine.operator.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The 128-bit sums of SUM and AVG against BigInteger, across the carries between the two words. */
class TestInt128Sums
{
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    @Test
    void sumsOfLongsCarryIntoTheHighWord()
    {
        Int128Sums sums = new Int128Sums();
        sums.ensureCapacity(2);
        BigInteger[] expected = {BigInteger.ZERO, BigInteger.ZERO};
        for (int i = 0; i < 1000; i++) {
            sums.add(0, Long.MAX_VALUE);
            expected[0] = expected[0].add(BigInteger.valueOf(Long.MAX_VALUE));
            sums.add(1, Long.MIN_VALUE + i);
            expected[1] = expected[1].add(BigInteger.valueOf(Long.MIN_VALUE + i));
        }
        assertThat(sums.get(0)).isEqualTo(expected[0]);
        assertThat(sums.get(1)).isEqualTo(expected[1]);
        assertThat(sums.fitsLong(0)).isFalse();
        // and back into a long: the high word returns to 0
        for (int i = 0; i < 1000; i++) {
            sums.add(0, -Long.MAX_VALUE);
        }
        assertThat(sums.get(0)).isEqualTo(BigInteger.ZERO);
        assertThat(sums.fitsLong(0)).isTrue();
    }

    @Test
    void randomWideValuesAndMergedStatesMatchBigInteger()
    {
        Random random = new Random(42);
        Int128Sums sums = new Int128Sums();
        Int128Sums other = new Int128Sums();
        sums.ensureCapacity(8);
        other.ensureCapacity(8);
        BigInteger[] expected = new BigInteger[8];
        java.util.Arrays.fill(expected, BigInteger.ZERO);
        for (int i = 0; i < 20_000; i++) {
            int group = random.nextInt(8);
            // values up to about 10^30, positive and negative, as 128-bit two's complement words
            BigInteger value = new BigInteger(100, random);
            if (random.nextBoolean()) {
                value = value.negate();
            }
            long low = value.longValue();
            long high = value.shiftRight(64).longValue();
            (i % 3 == 0 ? other : sums).add(group, high, low);
            expected[group] = expected[group].add(value);
        }
        for (int group = 0; group < 8; group++) {
            sums.addSum(group, other.high(group), other.low(group));
            assertThat(sums.get(group)).as("group %s", group).isEqualTo(expected[group]);
            assertThat(BigInteger.valueOf(sums.high(group)).multiply(TWO_TO_64).add(BigInteger.valueOf(sums.low(group)))).isEqualTo(expected[group]);
        }
    }
}
