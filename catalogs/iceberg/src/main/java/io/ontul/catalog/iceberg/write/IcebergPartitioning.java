package io.ontul.catalog.iceberg.write;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Parses the {@code partitioning} table property, the partition fields as Trino and Spark write
 * them: {@code 'country'} (identity), {@code 'year(d)'}, {@code 'month(d)'}, {@code 'day(ts)'},
 * {@code 'hour(ts)'}, {@code 'bucket(16, id)'}, {@code 'truncate(10, name)'}. Column names may be
 * double-quoted.
 */
public final class IcebergPartitioning
{
    private static final String COLUMN = "\\s*(\"(?:[^\"]|\"\")+\"|[^\\s(),\"]+)\\s*";
    private static final Pattern IDENTITY = Pattern.compile(COLUMN);
    private static final Pattern TIME = Pattern.compile("\\s*(year|month|day|hour)\\s*\\(" + COLUMN + "\\)\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern WITH_WIDTH = Pattern.compile("\\s*(bucket|truncate)\\s*\\(\\s*(\\d+)\\s*," + COLUMN + "\\)\\s*", Pattern.CASE_INSENSITIVE);

    private IcebergPartitioning() {}

    public static PartitionSpec parse(String tableName, Schema schema, List<String> fields)
    {
        PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
        for (String field : fields) {
            try {
                // alone first, so that a transform that does not fit its column's type names the field
                PartitionSpec.Builder single = PartitionSpec.builderFor(schema);
                add(single, field);
                single.build();
                add(builder, field);
            }
            catch (OntulException e) {
                throw e;
            }
            catch (RuntimeException e) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid partitioning '%s' for table '%s': %s", field, tableName, e.getMessage());
            }
        }
        try {
            return builder.build();
        }
        catch (RuntimeException e) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Invalid partitioning %s for table '%s': %s", fields, tableName, e.getMessage());
        }
    }

    private static void add(PartitionSpec.Builder builder, String field)
    {
        Matcher time = TIME.matcher(field);
        if (time.matches()) {
            String column = column(time.group(2));
            switch (time.group(1).toLowerCase(Locale.ROOT)) {
                case "year" -> builder.year(column);
                case "month" -> builder.month(column);
                case "day" -> builder.day(column);
                default -> builder.hour(column);
            }
            return;
        }
        Matcher withWidth = WITH_WIDTH.matcher(field);
        if (withWidth.matches()) {
            int width = Integer.parseInt(withWidth.group(2));
            if (width <= 0) {
                throw new IllegalArgumentException("the width must be positive");
            }
            String column = column(withWidth.group(3));
            if (withWidth.group(1).equalsIgnoreCase("bucket")) {
                builder.bucket(column, width);
            }
            else {
                builder.truncate(column, width);
            }
            return;
        }
        Matcher identity = IDENTITY.matcher(field);
        if (identity.matches()) {
            builder.identity(column(identity.group(1)));
            return;
        }
        throw new IllegalArgumentException("use a column name, year(c), month(c), day(c), hour(c), bucket(n, c) or truncate(n, c)");
    }

    private static String column(String text)
    {
        if (text.startsWith("\"")) {
            return text.substring(1, text.length() - 1).replace("\"\"", "\"");
        }
        return text;
    }
}
