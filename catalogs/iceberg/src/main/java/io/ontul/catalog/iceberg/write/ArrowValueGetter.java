package io.ontul.catalog.iceberg.write;

/**
 * Reads the value of one row of one Arrow vector in the Java type Iceberg's generic writers take
 * for the column (Integer, Long, LocalDate, LocalDateTime, OffsetDateTime, BigDecimal, a
 * CharSequence, UUID...), or null.
 */
@FunctionalInterface
interface ArrowValueGetter
{
    Object get(int row);
}
