package io.ontul.catalog.jdbc.type;

import static java.util.Objects.requireNonNull;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import io.ontul.spi.ColumnPredicate.Operator;

/**
 * Which predicates on a column the database may evaluate. The database must never reject a row
 * the engine would keep: an operator is listed only if the database's result is the engine's
 * result or a superset of it. {@code exact} says the database's result is exactly the engine's
 * (only then may a LIMIT be pushed as well). IS NULL and IS NOT NULL are always pushed.
 *
 * @param rangeCollation a collation to compare with for {@code <, <=, >, >=} on text, so that the
 * database orders text as the engine does (code point order); empty for other columns
 */
public record PredicatePushdown(Set<Operator> operators, boolean exact, Optional<String> rangeCollation)
{
    private static final Set<Operator> COMPARISONS = EnumSet.of(Operator.EQUAL, Operator.NOT_EQUAL, Operator.LESS_THAN, Operator.LESS_THAN_OR_EQUAL,
            Operator.GREATER_THAN, Operator.GREATER_THAN_OR_EQUAL, Operator.IN);

    public PredicatePushdown
    {
        operators = Set.copyOf(requireNonNull(operators, "operators is null"));
        requireNonNull(rangeCollation, "rangeCollation is null");
    }

    /** Only IS NULL and IS NOT NULL. */
    public static PredicatePushdown nullChecksOnly()
    {
        return new PredicatePushdown(Set.of(), true, Optional.empty());
    }

    /** Every comparison and IN, with the engine's semantics. */
    public static PredicatePushdown comparisons()
    {
        return new PredicatePushdown(COMPARISONS, true, Optional.empty());
    }

    /** Every comparison and IN, where the database may keep rows the engine rejects (floating point NaN). */
    public static PredicatePushdown inexactComparisons()
    {
        return new PredicatePushdown(COMPARISONS, false, Optional.empty());
    }

    /** Equality, inequality and IN. */
    public static PredicatePushdown equality()
    {
        return new PredicatePushdown(EnumSet.of(Operator.EQUAL, Operator.NOT_EQUAL, Operator.IN), true, Optional.empty());
    }

    public boolean allows(Operator operator)
    {
        return switch (operator) {
            case IS_NULL, IS_NOT_NULL -> true;
            default -> operators.contains(operator);
        };
    }
}
