package io.ontul.engine.sql.tree;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Reduces a {@code WITH (...)} list to the values connectors receive: String, Long, BigDecimal,
 * Boolean, or a List of those for {@code ARRAY[...]}. Anything else, and a name given twice, is an
 * error naming the property and its position.
 */
public final class SqlProperties
{
    private SqlProperties() {}

    /** The properties in the order written; empty for a missing list. */
    public static Map<String, Object> values(SqlNodeList properties)
    {
        Map<String, Object> values = new LinkedHashMap<>();
        if (properties == null) {
            return values;
        }
        for (SqlNode node : properties) {
            SqlProperty property = (SqlProperty) node;
            String name = property.name();
            if (values.containsKey(name)) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(property.getParserPosition()) + "Property '" + name + "' is given more than once");
            }
            values.put(name, value(name, property.value()));
        }
        return values;
    }

    /** The properties as text, for settings such as a catalog's configuration. */
    public static Map<String, String> text(SqlNodeList properties)
    {
        Map<String, String> text = new LinkedHashMap<>();
        values(properties).forEach((name, value) -> {
            if (value instanceof List<?>) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Property '" + name + "' must be a single value, not an ARRAY");
            }
            text.put(name, value instanceof BigDecimal decimal ? decimal.toPlainString() : String.valueOf(value));
        });
        return text;
    }

    private static Object value(String name, SqlNode node)
    {
        if (node instanceof SqlLiteral literal) {
            Object value = literalValue(literal);
            if (value != null) {
                return value;
            }
        }
        else if (node.getKind() == SqlKind.MINUS_PREFIX && ((SqlBasicCall) node).operand(0) instanceof SqlNumericLiteral number) {
            Object value = literalValue(number);
            return value instanceof Long whole ? -whole : ((BigDecimal) value).negate();
        }
        else if (node.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
            List<Object> elements = new ArrayList<>();
            for (SqlNode element : ((SqlBasicCall) node).getOperandList()) {
                Object value = value(name, element);
                if (value instanceof List<?>) {
                    throw invalid(name, element);
                }
                elements.add(value);
            }
            return List.copyOf(elements);
        }
        throw invalid(name, node);
    }

    private static Object literalValue(SqlLiteral literal)
    {
        return switch (literal.getTypeName()) {
            case CHAR, VARCHAR -> literal.getValueAs(String.class);
            case BOOLEAN -> literal.getValueAs(Boolean.class);
            case DECIMAL, INTEGER, BIGINT, DOUBLE -> {
                BigDecimal number = literal.getValueAs(BigDecimal.class);
                yield ((SqlNumericLiteral) literal).isExact() && number.scale() <= 0 ? (Object) number.longValueExact() : number;
            }
            default -> null;
        };
    }

    private static OntulException invalid(String name, SqlNode node)
    {
        return new OntulException(ErrorCode.INVALID_ARGUMENT, position(node.getParserPosition())
                + "Property '" + name + "' must be a string, number or boolean literal or an ARRAY of them");
    }

    private static String position(SqlParserPos pos)
    {
        return "line %d:%d: ".formatted(pos.getLineNum(), pos.getColumnNum());
    }
}
