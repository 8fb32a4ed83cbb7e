package io.ontul.bench;

import java.math.BigDecimal;

/** The schema of Ontul's tpch catalog for a scale factor: sf1, sf10, sf0_1, sf0_01. */
public final class TpchSchemaNames
{
    private TpchSchemaNames() {}

    public static String of(double scale)
    {
        if (scale == Math.rint(scale)) {
            return "sf" + (long) scale;
        }
        return "sf" + BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString().replace('.', '_');
    }
}
