package io.ontul.engine.type;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Type rules where users expect PostgreSQL/Trino/DuckDB behaviour rather than Calcite's
 * defaults: DECIMAL up to 38 digits, AVG of an exact number is DOUBLE (fractional), SUM of
 * integers is BIGINT and SUM of DECIMAL(p,s) is DECIMAL(38,s), and a DECIMAL quotient keeps
 * enough places to be used again (see {@link #deriveDecimalDivideType}).
 */
public final class OntulTypeSystem
        extends RelDataTypeSystemImpl
{
    public static final OntulTypeSystem INSTANCE = new OntulTypeSystem();

    private OntulTypeSystem() {}

    @Override
    public int getMaxPrecision(SqlTypeName typeName)
    {
        return switch (typeName) {
            case DECIMAL -> 38;
            case TIMESTAMP, TIME, TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ -> 6;
            case VARCHAR, CHAR -> 1 << 20;
            default -> super.getMaxPrecision(typeName);
        };
    }

    @Override
    public int getMaxScale(SqlTypeName typeName)
    {
        return typeName == SqlTypeName.DECIMAL ? 38 : super.getMaxScale(typeName);
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName)
    {
        if (typeName == SqlTypeName.TIMESTAMP || typeName == SqlTypeName.TIMESTAMP_TZ || typeName == SqlTypeName.TIME) {
            return typeName == SqlTypeName.TIME ? 0 : 3;
        }
        return super.getDefaultPrecision(typeName);
    }

    /**
     * The places a DECIMAL quotient keeps when its exact type would need more than 38 digits:
     * SQL Server and Spark keep 6, which is too few for a ratio that is multiplied again (a share
     * times 100 is then right to 4 places only); 12 keep such a result right to 1e-10 and leave the
     * integer part 26 digits, more than any sum of money needs. A quotient past them is an error.
     */
    static final int MIN_QUOTIENT_SCALE_WHEN_CUT = 12;

    /**
     * DECIMAL(p1,s1) / DECIMAL(p2,s2) is DECIMAL(p,s) with s = max(6, s1 + p2 + 1) places and the
     * p1 - s1 + s2 integer digits the largest quotient needs (the rule of SQL Server and Spark);
     * when the two need more than 38 digits the places are cut to what is left, but never below
     * {@link #MIN_QUOTIENT_SCALE_WHEN_CUT} (Calcite's default cuts to 6 as soon as p would pass 32,
     * so SUM(x) / SUM(y) had 6 places). Integers divided by integers stay integer division.
     */
    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory typeFactory, RelDataType dividendType, RelDataType divisorType)
    {
        RelDataType derived = super.deriveDecimalDivideType(typeFactory, dividendType, divisorType);
        if (derived == null || derived.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return derived;
        }
        RelDataType dividend = SqlTypeUtil.isDecimal(dividendType) ? dividendType : typeFactory.decimalOf(dividendType);
        RelDataType divisor = SqlTypeUtil.isDecimal(divisorType) ? divisorType : typeFactory.decimalOf(divisorType);
        int maxPrecision = getMaxNumericPrecision();
        int integerDigits = dividend.getPrecision() - dividend.getScale() + divisor.getScale();
        int scale = Math.min(Math.max(6, dividend.getScale() + divisor.getPrecision() + 1), getMaxNumericScale());
        if (integerDigits + scale > maxPrecision) {
            scale = Math.max(maxPrecision - integerDigits, Math.min(scale, MIN_QUOTIENT_SCALE_WHEN_CUT));
        }
        int precision = Math.max(1, Math.min(maxPrecision, integerDigits + scale));
        return typeFactory.createSqlType(SqlTypeName.DECIMAL, precision, Math.min(scale, precision));
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType)
    {
        if (SqlTypeUtil.isExactNumeric(argumentType)) {
            return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE), argumentType.isNullable());
        }
        return super.deriveAvgAggType(typeFactory, argumentType);
    }

    /** COVAR_POP and COVAR_SAMP of exact numbers are DOUBLE, as in Trino and DuckDB (Calcite keeps the arguments' type). */
    @Override
    public RelDataType deriveCovarType(RelDataTypeFactory typeFactory, RelDataType arg0Type, RelDataType arg1Type)
    {
        if (SqlTypeUtil.isExactNumeric(arg0Type) || SqlTypeUtil.isExactNumeric(arg1Type)) {
            return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE), arg0Type.isNullable() || arg1Type.isNullable());
        }
        return super.deriveCovarType(typeFactory, arg0Type, arg1Type);
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType)
    {
        RelDataType type = switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> typeFactory.createSqlType(SqlTypeName.BIGINT);
            case DECIMAL -> typeFactory.createSqlType(SqlTypeName.DECIMAL, 38, argumentType.getScale());
            case REAL, FLOAT, DOUBLE -> typeFactory.createSqlType(SqlTypeName.DOUBLE);
            default -> argumentType;
        };
        return typeFactory.createTypeWithNullability(type, argumentType.isNullable());
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying()
    {
        return true;
    }
}
