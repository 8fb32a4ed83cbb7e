package io.ontul.catalog.tpch;

import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Schema names of the tpch catalog. Each names a scale factor: {@code tiny} is 0.01,
 * {@code sfN} is N and {@code sfN_M} is N.M (so {@code sf0_1} is 0.1). Only a few are listed, but
 * every well-formed name resolves.
 */
public final class TpchSchemas
{
    public static final List<String> LISTED = List.of("tiny", "sf1", "sf10", "sf100");

    private static final double TINY_SCALE_FACTOR = 0.01;
    // more would overflow the generators' row numbering long before anyone waited for the rows
    private static final double MAX_SCALE_FACTOR = 100_000;
    // one spelling per scale: no leading zeros in the integer part, no trailing zeros in the fraction
    private static final Pattern SCALE_FACTOR_NAME = Pattern.compile("sf(0|[1-9][0-9]*)(?:_([0-9]*[1-9]))?");

    private TpchSchemas() {}

    /** The scale factor a schema name stands for, or empty if it is not a tpch schema. */
    public static OptionalDouble scaleFactor(String schema)
    {
        if (schema.equals("tiny")) {
            return OptionalDouble.of(TINY_SCALE_FACTOR);
        }
        Matcher matcher = SCALE_FACTOR_NAME.matcher(schema);
        if (!matcher.matches()) {
            return OptionalDouble.empty();
        }
        String fraction = matcher.group(2);
        double scaleFactor = Double.parseDouble(fraction == null ? matcher.group(1) : matcher.group(1) + "." + fraction);
        if (scaleFactor <= 0 || scaleFactor > MAX_SCALE_FACTOR) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(scaleFactor);
    }
}
