package io.ontul.engine.type;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Type rules where users expect PostgreSQL/Trino/DuckDB behaviour rather than Calcite's
 * defaults: DECIMAL up to 38 digits, AVG of an exact number is DOUBLE (fractional), SUM of
 * integers is BIGINT and SUM of DECIMAL(p,s) is DECIMAL(38,s).
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
