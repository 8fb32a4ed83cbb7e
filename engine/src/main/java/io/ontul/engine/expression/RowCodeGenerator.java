package io.ontul.engine.expression;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Translates one Calcite row expression into Java statements that compute it for row
 * {@code i}. Each value is a pair of local variables (is-null flag, value). CASE, AND, OR and
 * COALESCE evaluate lazily, so {@code CASE WHEN x = 0 THEN 0 ELSE 1 / x END} never divides by
 * zero. Subexpressions without column references are hoisted into fields computed once per
 * kernel (constant folding).
 */
final class RowCodeGenerator
{
    record Value(String isNull, String value, RelDataType type) {}

    private static final String F = "io.ontul.engine.expression.Functions.";
    private static final String BINARY = "io.ontul.engine.expression.BinaryFunctions.";
    private static final String ARRAYS = "io.ontul.engine.expression.ArrayValues.";
    private static final String ZONED = "io.ontul.engine.expression.ZonedTimestamps.";
    private static final String WIDE = "io.ontul.engine.expression.WideDecimals.";
    /** A catch clause that lets the long kernel's call for wide DECIMALs through a catch of RuntimeException after it. */
    private static final String RETHROW_WIDE = "catch (io.ontul.engine.expression.WideDecimals.Required e) {\nthrow e;\n}\n";
    /**
     * Expression nodes one generated method holds inline; larger expressions continue in
     * methods of their own, so no method comes near the JVM's 64 KB of bytecode.
     */
    static final int METHOD_BUDGET = 120;
    /** Operands of AND, OR, CASE and COALESCE evaluated in one method; the rest continue in another. */
    static final int MAX_INLINE_OPERANDS = 32;
    /** IN lists with at least this many values test membership in a sorted array or hash set. */
    static final int MIN_SET_POINTS = 8;
    /** Longer string literals are passed to the kernel as constants, not written into its source. */
    static final int MAX_INLINE_STRING = 512;
    private static final int INIT_STATEMENTS_PER_METHOD = 200;
    private static final String METHOD_PARAMETERS = "final org.apache.arrow.vector.FieldVector[] inputs, final int i";

    /** What every method of one generated class shares: fields, their initialisation, extra methods, constants. */
    private static final class ClassParts
    {
        final StringBuilder fields = new StringBuilder();
        final List<String> initStatements = new ArrayList<>();
        final StringBuilder methods = new StringBuilder();
        final List<Object> constants = new ArrayList<>();
        int variableCounter;
        int constantCounter;
        int methodCounter;
        /** DECIMALs held as BigDecimal ({@link WideDecimals}) rather than unscaled longs. */
        boolean wideDecimals;
        /** Whether any DECIMAL value was generated (the kernel then may need its wide version). */
        boolean decimalsUsed;
    }

    private final List<RelDataType> inputTypes;
    private final RexBuilder rexBuilder;
    private final ClassParts parts;
    private final TreeSet<Integer> usedColumns = new TreeSet<>();
    private final TreeSet<Integer> neededNulls = new TreeSet<>();
    private final TreeSet<Integer> neededValues = new TreeSet<>();
    private int nodesEmitted;

    /**
     * Whether this scope's column declarations run once per batch (the kernel's process method,
     * around the row loop) rather than once per row (the methods expressions are split into).
     */
    private final boolean batchScope;

    /**
     * The generator of the kernel's row loop, whose column declarations run once per batch.
     *
     * @param wideDecimals whether DECIMAL values are held as BigDecimal (any precision up to 38)
     * rather than as unscaled longs (fast; {@link WideDecimals#REQUIRED} where one does not fit)
     */
    RowCodeGenerator(List<RelDataType> inputTypes, RexBuilder rexBuilder, boolean wideDecimals)
    {
        this(inputTypes, rexBuilder, new ClassParts(), true);
        parts.wideDecimals = wideDecimals;
    }

    boolean wideDecimals()
    {
        return parts.wideDecimals;
    }

    /** Whether the code generated so far holds a DECIMAL value anywhere. */
    boolean decimalsUsed()
    {
        return parts.decimalsUsed;
    }

    /** How generated code holds a value of {@code type} in this kernel. */
    private JavaKind kind(RelDataType type)
    {
        if (type.getSqlTypeName() == SqlTypeName.DECIMAL) {
            parts.decimalsUsed = true;
            if (parts.wideDecimals) {
                return JavaKind.WIDE_DECIMAL;
            }
        }
        return JavaKind.of(type);
    }

    /** The class whose methods compute on DECIMALs as this kernel holds them ({@link Functions} or {@link WideDecimals}). */
    private String decimals()
    {
        return parts.wideDecimals ? WIDE : F;
    }

    /** A whole number computed as a long, as a DECIMAL of {@code scale} held as this kernel holds DECIMALs. */
    private String decimalOfLong(String longValue, int scale)
    {
        return parts.wideDecimals ? WIDE + "of(" + longValue + ", " + scale + ")" : F + "rescale(" + longValue + ", 0, " + scale + ")";
    }

    private RowCodeGenerator(List<RelDataType> inputTypes, RexBuilder rexBuilder, ClassParts parts, boolean batchScope)
    {
        this.inputTypes = inputTypes;
        this.rexBuilder = rexBuilder;
        this.parts = parts;
        this.batchScope = batchScope;
    }

    /** A generator for another method of the same class (called per row): it declares and reads its own columns. */
    RowCodeGenerator newScope()
    {
        return new RowCodeGenerator(inputTypes, rexBuilder, parts, false);
    }

    /**
     * {@code final XVector inN = (XVector) inputs[N];} for every column this scope uses; in the
     * batch scope also {@code final boolean mayNullN}, false when the batch's column has no
     * NULL, so that the row loop does not read its validity bit for every row.
     */
    String columnDeclarations()
    {
        StringBuilder code = new StringBuilder();
        for (int column : usedColumns) {
            String vectorClass = Vectors.vectorClass(inputTypes.get(column));
            code.append("final ").append(vectorClass).append(" in").append(column).append(" = (").append(vectorClass).append(") inputs[").append(column).append("];\n");
            if (batchScope && neededNulls.contains(column)) {
                code.append("final boolean mayNull").append(column).append(" = in").append(column).append(".getNullCount() > 0;\n");
            }
        }
        return code.toString();
    }

    /** Values the kernel's constructor receives: IN-list sets and long literals. */
    Object[] constants()
    {
        return parts.constants.toArray();
    }

    /**
     * Fields, {@code init()} (run once, before the first row) and the methods expressions were
     * split into, for the class body.
     */
    String classMembers()
    {
        StringBuilder members = new StringBuilder(parts.fields);
        members.append("private void init() {\n");
        List<String> statements = parts.initStatements;
        if (statements.size() <= INIT_STATEMENTS_PER_METHOD) {
            statements.forEach(members::append);
            members.append("}\n");
        }
        else {
            StringBuilder chunks = new StringBuilder();
            for (int from = 0, chunk = 0; from < statements.size(); from += INIT_STATEMENTS_PER_METHOD, chunk++) {
                members.append("init").append(chunk).append("();\n");
                chunks.append("private void init").append(chunk).append("() {\n");
                statements.subList(from, Math.min(statements.size(), from + INIT_STATEMENTS_PER_METHOD)).forEach(chunks::append);
                chunks.append("}\n");
            }
            members.append("}\n").append(chunks);
        }
        members.append(parts.methods);
        return members.toString();
    }

    /**
     * Emits the reads of every column an expression generated so far needs and that
     * {@code alreadyRead} does not have yet: the null flag, and the value unless only the flag
     * is used (text compared as bytes or copied needs no decoding).
     */
    void emitReads(java.util.Set<Integer> nullsRead, java.util.Set<Integer> valuesRead, StringBuilder code)
    {
        for (int column : neededNulls) {
            if (nullsRead.add(column)) {
                code.append("final boolean cn").append(column).append(" = ").append(batchScope ? "mayNull" + column + " && " : "")
                        .append("in").append(column).append(".isNull(i);\n");
            }
        }
        for (int column : neededValues) {
            if (valuesRead.add(column)) {
                RelDataType type = inputTypes.get(column);
                JavaKind kind = kind(type);
                code.append("final ").append(kind.javaType).append(" cv").append(column).append(" = cn").append(column).append(" ? ")
                        .append(kind.zero).append(" : ").append(Vectors.readCode(type, "in" + column, "i", parts.wideDecimals)).append(";\n");
            }
        }
    }

    private String nullFlag(int column)
    {
        usedColumns.add(column);
        neededNulls.add(column);
        return "cn" + column;
    }

    private Value columnValue(RexInputRef ref)
    {
        nullFlag(ref.getIndex());
        neededValues.add(ref.getIndex());
        return new Value("cn" + ref.getIndex(), "cv" + ref.getIndex(), ref.getType());
    }

    /** The number of nodes of an expression tree: what its generated code costs. */
    static int size(RexNode node)
    {
        if (!(node instanceof RexCall call)) {
            return 1;
        }
        int size = 1;
        for (RexNode operand : call.operands) {
            size += size(operand);
        }
        return size;
    }

    Value generate(RexNode node, StringBuilder code)
    {
        if (node instanceof RexInputRef ref) {
            return columnValue(ref);
        }
        if (node instanceof RexLiteral literal) {
            return literal(literal);
        }
        if (!(node instanceof RexCall call)) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "Expression is not supported: " + node);
        }
        if (RexUtil.isConstant(call) && RexUtil.isDeterministic(call)) {
            return hoist(call);
        }
        if (nodesEmitted > 0) {
            int size = size(call);
            if (size > 4 && nodesEmitted + size > METHOD_BUDGET) {
                return inMethod((scope, methodCode) -> scope.generate(call, methodCode), code);
            }
        }
        nodesEmitted++;
        return call(call, code);
    }

    /**
     * Generates what {@code body} produces as a method of its own, in a new scope, and calls it:
     * {@code m<N>(inputs, i)} returns the value and leaves its null flag in field {@code mn<N>}.
     * Every place code is generated into has {@code inputs} and {@code i} in scope.
     */
    Value inMethod(java.util.function.BiFunction<RowCodeGenerator, StringBuilder, Value> body, StringBuilder code)
    {
        RowCodeGenerator scope = newScope();
        StringBuilder methodCode = new StringBuilder();
        Value value = body.apply(scope, methodCode);
        int id = parts.methodCounter++;
        JavaKind kind = kind(value.type());
        StringBuilder reads = new StringBuilder();
        scope.emitReads(new java.util.HashSet<>(), new java.util.HashSet<>(), reads);
        parts.fields.append("private boolean mn").append(id).append(";\n");
        parts.methods.append("private ").append(kind.javaType).append(" m").append(id).append("(").append(METHOD_PARAMETERS).append(") {\n")
                .append(scope.columnDeclarations()).append(reads).append(methodCode)
                .append("mn").append(id).append(" = ").append(value.isNull()).append(";\n")
                .append("return mn").append(id).append(" ? ").append(kind.zero).append(" : ").append(value.value()).append(";\n")
                .append("}\n");
        String name = newVariable();
        code.append("final ").append(kind.javaType).append(" v").append(name).append(" = m").append(id).append("(inputs, i);\n");
        code.append("final boolean n").append(name).append(" = mn").append(id).append(";\n");
        return new Value("n" + name, "v" + name, value.type());
    }

    /** Computes a constant subexpression once, before the first row, into fields. */
    private Value hoist(RexCall call)
    {
        int id = parts.constantCounter++;
        JavaKind kind = kind(call.getType());
        parts.fields.append("private boolean kn").append(id).append(";\n");
        parts.fields.append("private ").append(kind.javaType).append(" kv").append(id).append(";\n");
        parts.fields.append("private RuntimeException ke").append(id).append(";\n");
        RowCodeGenerator scope = newScope();
        StringBuilder code = new StringBuilder();
        scope.nodesEmitted++;
        Value value = scope.call(call, code);
        // an error (1 / 0) is raised only where the value is used, so a CASE branch that is never
        // taken never fails; each constant is computed in a method of its own, so there may be many
        parts.methods.append("private void hoist").append(id).append("(").append(METHOD_PARAMETERS).append(") {\n")
                .append("try {\n").append(code).append("kn").append(id).append(" = ").append(value.isNull()).append(";\n")
                .append("kv").append(id).append(" = ").append(value.isNull()).append(" ? ").append(kind.zero).append(" : ").append(value.value()).append(";\n")
                .append("} catch (RuntimeException e) { ke").append(id).append(" = e; }\n}\n");
        parts.initStatements.add("hoist" + id + "(null, 0);\n");
        return new Value("(" + F + "raise(ke" + id + ") || kn" + id + ")", "kv" + id, call.getType());
    }

    /**
     * A value the kernel receives at construction ({@code constants[n]}), as a field of
     * {@code javaType}: IN-list sets, long strings.
     */
    private String constant(Object value, String javaType)
    {
        int index = parts.constants.size();
        parts.constants.add(value);
        parts.fields.append("private ").append(javaType).append(" kc").append(index).append(";\n");
        parts.initStatements.add("kc" + index + " = (" + javaType + ") constants[" + index + "];\n");
        return "kc" + index;
    }

    /** A Java expression for a string literal: in the source when short, a constant when long. */
    private String stringSource(String value)
    {
        return value.length() > MAX_INLINE_STRING ? constant(value, "String") : javaString(value);
    }

    /** Registers a field initialised once by {@code initializer} (a Java expression). */
    private String initializedField(String javaType, String prefix, String initializer)
    {
        int id = parts.constantCounter++;
        parts.fields.append("private ").append(javaType).append(" ").append(prefix).append(id).append(";\n");
        parts.initStatements.add(prefix + id + " = " + initializer + ";\n");
        return prefix + id;
    }

    private String newVariable()
    {
        return "t" + parts.variableCounter++;
    }

    /** {@code TRY_CAST(x AS type)}: the cast, or NULL where it fails (a value that does not fit or parse). */
    private Value tryCast(RexCall call, StringBuilder code)
    {
        RelDataType type = call.getType();
        Value operand = generate(call.operands.get(0), code);
        JavaKind kind = kind(type);
        if (operand.isNull().equals("true")) {
            return new Value("true", kind.zero, type);
        }
        String name = newVariable();
        code.append("boolean t").append(name).append(" = ").append(operand.isNull()).append(";\n");
        code.append(kind.javaType).append(" u").append(name).append(" = ").append(kind.zero).append(";\n");
        code.append("if (!t").append(name).append(") {\ntry {\nu").append(name).append(" = ").append(cast(operand.value(), operand.type(), type)).append(";\n}\n")
                .append(RETHROW_WIDE)
                .append("catch (RuntimeException e) {\nt").append(name).append(" = true;\n}\n}\n");
        code.append("final boolean n").append(name).append(" = t").append(name).append(";\n");
        code.append("final ").append(kind.javaType).append(" v").append(name).append(" = u").append(name).append(";\n");
        return new Value("n" + name, "v" + name, type);
    }

    private Value declare(StringBuilder code, RelDataType type, String isNull, String valueWhenNotNull)
    {
        String name = newVariable();
        JavaKind kind = kind(type);
        code.append("final boolean n").append(name).append(" = ").append(isNull).append(";\n");
        code.append("final ").append(kind.javaType).append(" v").append(name).append(" = n").append(name).append(" ? ").append(kind.zero)
                .append(" : ").append(valueWhenNotNull).append(";\n");
        return new Value("n" + name, "v" + name, type);
    }

    private Value literal(RexLiteral literal)
    {
        RelDataType type = literal.getType();
        if (literal.isNull()) {
            JavaKind kind = kind(type);
            // a typed null, so that code calling a method on the (never used) value still compiles
            return new Value("true", kind.zero.equals("null") ? "((" + kind.javaType + ") null)" : kind.zero, type);
        }
        String value = switch (type.getSqlTypeName()) {
            case BOOLEAN -> String.valueOf(literal.getValueAs(Boolean.class));
            case TINYINT, SMALLINT, INTEGER -> String.valueOf(literal.getValueAs(Integer.class));
            case BIGINT -> literal.getValueAs(Long.class) + "L";
            case DECIMAL -> {
                kind(type);
                BigDecimal decimal = literal.getValueAs(BigDecimal.class).setScale(type.getScale(), java.math.RoundingMode.HALF_UP);
                if (parts.wideDecimals) {
                    yield constant(decimal, "java.math.BigDecimal");
                }
                if (decimal.unscaledValue().bitLength() > 63) {
                    // a literal of more than 18 digits: this kernel holds DECIMALs wide
                    throw WideDecimals.REQUIRED;
                }
                yield decimal.unscaledValue().longValue() + "L";
            }
            case REAL, FLOAT, DOUBLE -> {
                double d = literal.getValueAs(Double.class);
                yield Double.isNaN(d) ? "Double.NaN" : Double.isInfinite(d) ? (d > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY") : Double.toString(d);
            }
            case CHAR, VARCHAR -> stringSource(literal.getValueAs(String.class));
            case UUID -> javaString(literal.getValueAs(java.util.UUID.class).toString());
            case BINARY, VARBINARY -> constant(Vectors.literalBytes(literal), "byte[]");
            case DATE, TIME -> String.valueOf(literal.getValueAs(Integer.class));
            case TIMESTAMP -> {
                if (type.getPrecision() > 3) {
                    yield Functions.parseTimestamp(literal.getValueAs(org.apache.calcite.util.TimestampString.class).toString(), true) + "L";
                }
                yield literal.getValueAs(Long.class) + "L";
            }
            case TIMESTAMP_TZ -> ZonedTimestamps.parse(literal.getValue().toString(), isMicros(type)) + "L";
            case NULL -> "0";
            default -> {
                if (isInterval(type)) {
                    yield literal.getValueAs(Long.class) + "L";
                }
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "Literal of type " + type + " is not supported");
            }
        };
        return new Value("false", value, type);
    }

    static String javaString(String value)
    {
        StringBuilder builder = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> builder.append("\\\"");
                case '\\' -> builder.append("\\\\");
                case '\n' -> builder.append("\\n");
                case '\r' -> builder.append("\\r");
                case '\t' -> builder.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        builder.append(String.format("\\u%04x", (int) c));
                    }
                    else {
                        builder.append(c);
                    }
                }
            }
        }
        return builder.append('"').toString();
    }

    private Value call(RexCall call, StringBuilder code)
    {
        SqlKind kind = call.getKind();
        RelDataType type = call.getType();
        if (isStrict(kind) && call.operands.stream().anyMatch(operand -> operand instanceof RexLiteral literal && literal.isNull())) {
            // NULL in, NULL out: no code for the operation itself
            return new Value("true", kind(type).zero, type);
        }
        switch (kind) {
            case AND:
            case OR:
                return andOr(call, kind == SqlKind.AND, code);
            case NOT: {
                Value operand = generate(call.operands.get(0), code);
                return new Value(operand.isNull(), "(!" + operand.value() + ")", type);
            }
            case IS_NULL:
                return new Value("false", generate(call.operands.get(0), code).isNull(), type);
            case IS_NOT_NULL:
                return new Value("false", "(!" + generate(call.operands.get(0), code).isNull() + ")", type);
            case IS_TRUE: {
                Value v = generate(call.operands.get(0), code);
                return new Value("false", "(!" + v.isNull() + " && " + v.value() + ")", type);
            }
            case IS_NOT_TRUE: {
                Value v = generate(call.operands.get(0), code);
                return new Value("false", "(" + v.isNull() + " || !" + v.value() + ")", type);
            }
            case IS_FALSE: {
                Value v = generate(call.operands.get(0), code);
                return new Value("false", "(!" + v.isNull() + " && !" + v.value() + ")", type);
            }
            case IS_NOT_FALSE: {
                Value v = generate(call.operands.get(0), code);
                return new Value("false", "(" + v.isNull() + " || " + v.value() + ")", type);
            }
            case EQUALS:
            case NOT_EQUALS: {
                Value bytes = textEqualsLiteral(call, kind == SqlKind.NOT_EQUALS, code);
                if (bytes != null) {
                    return bytes;
                }
            }
            // fall through
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL: {
                Value left = generate(call.operands.get(0), code);
                Value right = generate(call.operands.get(1), code);
                String comparison = compare(left, right, isPadded(call.operands.get(0)) || isPadded(call.operands.get(1)));
                String op = switch (kind) {
                    case EQUALS -> " == 0";
                    case NOT_EQUALS -> " != 0";
                    case LESS_THAN -> " < 0";
                    case LESS_THAN_OR_EQUAL -> " <= 0";
                    case GREATER_THAN -> " > 0";
                    default -> " >= 0";
                };
                return declare(code, type, left.isNull() + " || " + right.isNull(), "(" + comparison + op + ")");
            }
            case IS_DISTINCT_FROM:
            case IS_NOT_DISTINCT_FROM: {
                Value left = generate(call.operands.get(0), code);
                Value right = generate(call.operands.get(1), code);
                String same = "((" + left.isNull() + " && " + right.isNull() + ") || (!" + left.isNull() + " && !" + right.isNull() + " && " + compare(left, right) + " == 0))";
                return declare(code, type, "false", kind == SqlKind.IS_DISTINCT_FROM ? "!" + same : same);
            }
            case PLUS:
            case MINUS:
            case TIMES:
            case DIVIDE:
            case MOD:
                return arithmetic(call, kind, code);
            case MINUS_PREFIX: {
                Value operand = generate(call.operands.get(0), code);
                String value = switch (kind(type)) {
                    case DOUBLE -> "(-" + operand.value() + ")";
                    case INT -> F + "checkInt(" + F + "negate((long) " + operand.value() + "), \"" + type.getSqlTypeName() + "\")";
                    case WIDE_DECIMAL -> WIDE + "negate(" + operand.value() + ")";
                    default -> F + (type.getSqlTypeName() == SqlTypeName.DECIMAL ? "decimalNegate(" : "negate(") + operand.value() + ")";
                };
                return declare(code, type, operand.isNull(), value);
            }
            case PLUS_PREFIX:
                return generate(call.operands.get(0), code);
            case CASE:
                return caseWhen(call, code);
            case SEARCH:
                return search(call, code);
            case COALESCE:
                return coalesce(call, code);
            case CAST: {
                Value operand = generate(call.operands.get(0), code);
                if (operand.isNull().equals("true")) {
                    return new Value("true", kind(type).zero, type);
                }
                return declare(code, type, operand.isNull(), cast(operand.value(), operand.type(), type));
            }
            case SAFE_CAST:
                return tryCast(call, code);
            case LIKE:
                return like(call, code);
            case EXTRACT:
                return extract(call, code);
            case TRIM:
                return trim(call, code);
            case POSITION: {
                Value needle = generate(call.operands.get(0), code);
                Value haystack = generate(call.operands.get(1), code);
                return declare(code, type, needle.isNull() + " || " + haystack.isNull(), "(int) " + F + "position(" + needle.value() + ", " + haystack.value() + ")");
            }
            case FLOOR:
            case CEIL:
                return floorCeil(call, kind == SqlKind.FLOOR, code);
            case ARRAY_VALUE_CONSTRUCTOR:
                return arrayOf(call, code);
            default:
                return function(call, code);
        }
    }

    /** Operations whose result is NULL whenever an operand is NULL. */
    private static boolean isStrict(SqlKind kind)
    {
        return switch (kind) {
            case AND, OR, CASE, COALESCE, SEARCH, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE, IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM,
                    CAST, SAFE_CAST, OTHER_FUNCTION, OTHER, ARRAY_VALUE_CONSTRUCTOR -> false;
            default -> true;
        };
    }

    private Value andOr(RexCall call, boolean isAnd, StringBuilder code)
    {
        return andOr(call.operands, isAnd, call.getType(), code);
    }

    /** AND and OR of many operands: the first ones here, the rest in a method of their own. */
    private Value andOr(List<RexNode> operands, boolean isAnd, RelDataType type, StringBuilder code)
    {
        String name = newVariable();
        // for AND: decided=false found; for OR: decided=true found
        code.append("boolean n").append(name).append(" = false;\n");
        code.append("boolean v").append(name).append(" = ").append(isAnd).append(";\n");
        code.append("do {\n");
        int inline = Math.min(operands.size(), MAX_INLINE_OPERANDS);
        for (int index = 0; index <= inline; index++) {
            Value value;
            StringBuilder inner = new StringBuilder();
            if (index < inline) {
                value = generate(operands.get(index), inner);
            }
            else if (inline < operands.size()) {
                List<RexNode> rest = operands.subList(inline, operands.size());
                value = inMethod((scope, methodCode) -> scope.andOr(rest, isAnd, type, methodCode), inner);
            }
            else {
                break;
            }
            code.append(inner);
            String decisive = isAnd ? "!" + value.value() : value.value();
            code.append("if (!").append(value.isNull()).append(" && ").append(decisive).append(") { n").append(name).append(" = false; v")
                    .append(name).append(" = ").append(!isAnd).append("; break; }\n");
            code.append("if (").append(value.isNull()).append(") n").append(name).append(" = true;\n");
        }
        code.append("} while (false);\n");
        return new Value("n" + name, "v" + name, type);
    }

    private Value caseWhen(RexCall call, StringBuilder code)
    {
        return caseWhen(call.operands, call.getType(), code);
    }

    /**
     * CASE as a flat sequence of tests that leave a block once one holds (no nesting a long CASE
     * could make deep); after {@link #MAX_INLINE_OPERANDS} branches the rest is a method of its own.
     */
    private Value caseWhen(List<RexNode> operands, RelDataType type, StringBuilder code)
    {
        JavaKind kind = kind(type);
        String name = newVariable();
        code.append("boolean n").append(name).append(" = true;\n");
        code.append(kind.javaType).append(" v").append(name).append(" = ").append(kind.zero).append(";\n");
        code.append("do {\n");
        int pairs = operands.size() / 2;
        int inlinePairs = Math.min(pairs, MAX_INLINE_OPERANDS);
        for (int pair = 0; pair < inlinePairs; pair++) {
            StringBuilder condition = new StringBuilder();
            Value when = generate(operands.get(2 * pair), condition);
            code.append("{\n").append(condition);
            code.append("if (!").append(when.isNull()).append(" && ").append(when.value()).append(") {\n");
            assign(name, operands.get(2 * pair + 1), type, code);
            code.append("break;\n}\n}\n");
        }
        if (inlinePairs < pairs) {
            List<RexNode> rest = operands.subList(2 * inlinePairs, operands.size());
            Value value = inMethod((scope, methodCode) -> scope.caseWhen(rest, type, methodCode), code);
            code.append("n").append(name).append(" = ").append(value.isNull()).append(";\n");
            code.append("v").append(name).append(" = ").append(value.value()).append(";\n");
        }
        else if (operands.size() % 2 == 1) {
            assign(name, operands.get(operands.size() - 1), type, code);
        }
        code.append("} while (false);\n");
        return new Value("n" + name, "v" + name, type);
    }

    private void assign(String name, RexNode operand, RelDataType targetType, StringBuilder code)
    {
        Value value = generate(operand, code);
        code.append("n").append(name).append(" = ").append(value.isNull()).append(";\n");
        code.append("if (!n").append(name).append(") v").append(name).append(" = ").append(convert(value, targetType)).append(";\n");
    }

    private Value coalesce(RexCall call, StringBuilder code)
    {
        return coalesce(call.operands, call.getType(), code);
    }

    private Value coalesce(List<RexNode> operands, RelDataType type, StringBuilder code)
    {
        JavaKind kind = kind(type);
        String name = newVariable();
        code.append("boolean n").append(name).append(" = true;\n");
        code.append(kind.javaType).append(" v").append(name).append(" = ").append(kind.zero).append(";\n");
        code.append("do {\n");
        int inline = Math.min(operands.size(), MAX_INLINE_OPERANDS);
        for (int index = 0; index < inline; index++) {
            assign(name, operands.get(index), type, code);
            code.append("if (!n").append(name).append(") break;\n");
        }
        if (inline < operands.size()) {
            List<RexNode> rest = operands.subList(inline, operands.size());
            Value value = inMethod((scope, methodCode) -> scope.coalesce(rest, type, methodCode), code);
            code.append("n").append(name).append(" = ").append(value.isNull()).append(";\n");
            code.append("v").append(name).append(" = ").append(value.value()).append(";\n");
        }
        code.append("} while (false);\n");
        return new Value("n" + name, "v" + name, type);
    }

    // ---- IN lists

    /**
     * {@code x IN (v1, ..., vn)} and {@code x NOT IN (...)}, which Calcite hands over as SEARCH
     * with a set of points (or its complement): a membership test in a sorted array or a hash
     * set the kernel receives as a constant, so any number of values costs the same code. Short
     * lists and ranges are expanded into comparisons.
     */
    private Value search(RexCall call, StringBuilder code)
    {
        RexNode operand = call.operands.get(0);
        org.apache.calcite.util.Sarg<?> sarg = ((RexLiteral) call.operands.get(1)).getValueAs(org.apache.calcite.util.Sarg.class);
        boolean complemented = !sarg.isPoints() && sarg.isComplementedPoints();
        org.apache.calcite.util.Sarg<?> points = complemented ? sarg.negate() : sarg;
        Object set = (sarg.isPoints() || complemented) && points.pointCount >= MIN_SET_POINTS && kind(operand.getType()) != JavaKind.WIDE_DECIMAL
                ? ValueSets.of(points, operand.getType(), call.operands.get(1).getType())
                : null;
        if (set == null) {
            return generate(RexUtil.expandSearch(rexBuilder, null, call), code);
        }
        Value value = generate(operand, code);
        String field = constant(set, ValueSets.javaType(set));
        String member = ValueSets.containsCode(set, field, value.value());
        if (complemented) {
            member = "!" + member;
        }
        return switch (sarg.nullAs) {
            case TRUE -> declare(code, call.getType(), "false", value.isNull() + " || " + member);
            case FALSE -> declare(code, call.getType(), "false", "!" + value.isNull() + " && " + member);
            default -> declare(code, call.getType(), value.isNull(), member);
        };
    }

    /** Converts a non-null value to the representation of {@code target} (implicit widening). */
    private String convert(Value value, RelDataType target)
    {
        RelDataType source = value.type();
        if (source.getSqlTypeName() == target.getSqlTypeName()
                && (source.getSqlTypeName() != SqlTypeName.DECIMAL || source.getScale() == target.getScale())
                && (!isTimestamp(source) || (source.getPrecision() > 3) == (target.getPrecision() > 3))
                && source.getSqlTypeName() != SqlTypeName.CHAR
                && (source.getSqlTypeName() != SqlTypeName.ARRAY || sameElements(source, target))) {
            return value.value();
        }
        if (source.getSqlTypeName() == SqlTypeName.NULL) {
            return kind(target).zero;
        }
        return cast(value.value(), source, target);
    }

    // ---- comparisons

    /** CHAR values that are not literals compare ignoring trailing spaces (PAD SPACE). */
    private static boolean isPadded(RexNode node)
    {
        return node.getType().getSqlTypeName() == SqlTypeName.CHAR && !(node instanceof RexLiteral);
    }

    /**
     * {@code text_column = 'literal'} compared on the UTF-8 bytes in the vector, without decoding:
     * a VARCHAR column exactly, a CHAR column (or a CHAR column cast to a VARCHAR at least as long,
     * which drops its trailing spaces) without its trailing spaces, as PAD SPACE compares.
     */
    private Value textEqualsLiteral(RexCall call, boolean negated, StringBuilder code)
    {
        RexNode a = call.operands.get(0);
        RexNode b = call.operands.get(1);
        if (a instanceof RexLiteral) {
            RexNode swap = a;
            a = b;
            b = swap;
        }
        if (!(b instanceof RexLiteral literal) || literal.isNull()
                || (b.getType().getSqlTypeName() != SqlTypeName.VARCHAR && b.getType().getSqlTypeName() != SqlTypeName.CHAR)) {
            return null;
        }
        RexInputRef ref = textColumn(a);
        if (ref == null) {
            return null;
        }
        boolean padded = ref.getType().getSqlTypeName() == SqlTypeName.CHAR;
        String text = literal.getValueAs(String.class);
        if (padded && a == ref) {
            // a CHAR column compares with PAD SPACE: trailing spaces of neither side count
            text = Functions.stripTrailingSpaces(text);
        }
        String bytes = initializedField("byte[]", "kb", stringSource(text) + ".getBytes(java.nio.charset.StandardCharsets.UTF_8)");
        String isNull = nullFlag(ref.getIndex());
        String test = F + (padded ? "equalsUtf8WithoutTrailingSpaces(" : "equalsUtf8(") + "in" + ref.getIndex() + ", i, " + bytes + ")";
        return declare(code, call.getType(), isNull, negated ? "!" + test : test);
    }

    /**
     * The text column {@code node} reads, directly or through a CAST to a VARCHAR no shorter than
     * it (which changes no value but a CHAR's trailing spaces); null for anything else.
     */
    private static RexInputRef textColumn(RexNode node)
    {
        if (node instanceof RexInputRef ref) {
            SqlTypeName type = ref.getType().getSqlTypeName();
            return type == SqlTypeName.VARCHAR || type == SqlTypeName.CHAR ? ref : null;
        }
        if (node instanceof RexCall cast && cast.getKind() == SqlKind.CAST && cast.getType().getSqlTypeName() == SqlTypeName.VARCHAR
                && cast.operands.get(0) instanceof RexInputRef ref) {
            SqlTypeName type = ref.getType().getSqlTypeName();
            int length = cast.getType().getPrecision();
            boolean fits = length <= 0 || length >= (1 << 20) || (ref.getType().getPrecision() > 0 && length >= ref.getType().getPrecision());
            return (type == SqlTypeName.VARCHAR || type == SqlTypeName.CHAR) && fits ? ref : null;
        }
        return null;
    }

    /** Java expression whose sign is the comparison of two non-null values. */
    private String compare(Value left, Value right)
    {
        return compare(left, right, false);
    }

    private String compare(Value left, Value right, boolean padded)
    {
        RelDataType a = left.type();
        RelDataType b = right.type();
        JavaKind ka = kind(a);
        JavaKind kb = kind(b);
        if (ka == JavaKind.STRING && kb == JavaKind.STRING) {
            if (padded || (a.getSqlTypeName() == SqlTypeName.CHAR && b.getSqlTypeName() == SqlTypeName.CHAR)) {
                // CHAR compares with PAD SPACE semantics: trailing spaces do not matter
                return F + "compareCharacters(" + left.value() + ", " + right.value() + ")";
            }
            return F + "compareStrings(" + left.value() + ", " + right.value() + ")";
        }
        if (ka == JavaKind.BOOLEAN && kb == JavaKind.BOOLEAN) {
            return "Boolean.compare(" + left.value() + ", " + right.value() + ")";
        }
        if (ka == JavaKind.LIST && kb == JavaKind.LIST) {
            return ARRAYS + "compare(" + left.value() + ", " + right.value() + ")";
        }
        if (ka == JavaKind.BYTES && kb == JavaKind.BYTES) {
            return BINARY + "compare(" + left.value() + ", " + right.value() + ")";
        }
        if (isNumeric(a) && isNumeric(b)) {
            if (ka == JavaKind.DOUBLE || kb == JavaKind.DOUBLE) {
                return F + "compareDoubles(" + toDouble(left) + ", " + toDouble(right) + ")";
            }
            boolean decimalA = a.getSqlTypeName() == SqlTypeName.DECIMAL;
            boolean decimalB = b.getSqlTypeName() == SqlTypeName.DECIMAL;
            if (decimalA || decimalB) {
                int scaleA = decimalA ? a.getScale() : 0;
                int scaleB = decimalB ? b.getScale() : 0;
                int scale = Math.max(scaleA, scaleB);
                if (parts.wideDecimals) {
                    return WIDE + "compare(" + toDecimal(left, scale) + ", " + toDecimal(right, scale) + ")";
                }
                return "Long.compare(" + F + "rescale((long) " + left.value() + ", " + scaleA + ", " + scale + "), " + F + "rescale((long) " + right.value() + ", " + scaleB + ", " + scale + "))";
            }
            return "Long.compare((long) " + left.value() + ", (long) " + right.value() + ")";
        }
        if (isTimestamp(a) || isTimestamp(b)) {
            // the finer of the two units, so that no digit is lost
            RelDataType target = isTimestamp(a) && (!isTimestamp(b) || isMicros(a)) ? a : b;
            return "Long.compare(" + convert(left, target) + ", " + convert(right, target) + ")";
        }
        if (ka == JavaKind.STRING || kb == JavaKind.STRING) {
            // text against a non-text value: compare as the non-text type
            RelDataType target = ka == JavaKind.STRING ? b : a;
            return compare(new Value("false", convert(left, target), target), new Value("false", convert(right, target), target));
        }
        return "Long.compare((long) " + left.value() + ", (long) " + right.value() + ")";
    }

    private static boolean isNumeric(RelDataType type)
    {
        return switch (type.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, FLOAT, DOUBLE -> true;
            default -> false;
        };
    }

    private static boolean isInterval(RelDataType type)
    {
        SqlTypeFamily family = type.getSqlTypeName().getFamily();
        return family == SqlTypeFamily.INTERVAL_DAY_TIME || family == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    private static boolean isYearMonth(RelDataType type)
    {
        return type.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    private static boolean isMicros(RelDataType type)
    {
        return type.getPrecision() > 3;
    }

    private String toDouble(Value value)
    {
        RelDataType type = value.type();
        if (type.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return decimals() + "decimalToDouble(" + value.value() + ", " + type.getScale() + ")";
        }
        return "((double) " + value.value() + ")";
    }

    /** Value as a decimal of the given scale, held as this kernel holds DECIMALs (an unscaled long or a BigDecimal). */
    private String toDecimal(Value value, int scale)
    {
        RelDataType type = value.type();
        int from = type.getSqlTypeName() == SqlTypeName.DECIMAL ? type.getScale() : 0;
        if (parts.wideDecimals) {
            return type.getSqlTypeName() == SqlTypeName.DECIMAL
                    ? WIDE + "rescale(" + value.value() + ", " + from + ", " + scale + ")"
                    : WIDE + "of((long) " + value.value() + ", " + scale + ")";
        }
        if (from == scale) {
            return "((long) " + value.value() + ")";
        }
        return F + "rescale((long) " + value.value() + ", " + from + ", " + scale + ")";
    }

    // ---- arithmetic

    private Value arithmetic(RexCall call, SqlKind kind, StringBuilder code)
    {
        RelDataType type = call.getType();
        Value left = generate(call.operands.get(0), code);
        Value right = generate(call.operands.get(1), code);
        String isNull = left.isNull() + " || " + right.isNull();
        RelDataType a = left.type();
        RelDataType b = right.type();
        if (isDatetime(type) || isDatetime(a) || isDatetime(b)) {
            return datetimeArithmetic(call, kind, left, right, code);
        }
        if (isInterval(type) && (kind == SqlKind.TIMES || kind == SqlKind.DIVIDE)
                && (kind(a) == JavaKind.DOUBLE || kind(b) == JavaKind.DOUBLE
                    || a.getSqlTypeName() == SqlTypeName.DECIMAL || b.getSqlTypeName() == SqlTypeName.DECIMAL)) {
            // a fractional factor: compute on the exact count of milliseconds or months, round once
            String l = isInterval(a) ? "((double) " + left.value() + ")" : toDouble(left);
            String r = isInterval(b) ? "((double) " + right.value() + ")" : toDouble(right);
            String product = kind == SqlKind.TIMES ? l + " * " + r : F + "divideDouble(" + l + ", " + r + ")";
            return declare(code, type, isNull, "Math.round(" + product + ")");
        }
        if (isInterval(type)) {
            String op = switch (kind) {
                case PLUS -> F + "add";
                case MINUS -> F + "subtract";
                case TIMES -> F + "multiply";
                default -> F + "divide";
            };
            return declare(code, type, isNull, op + "(" + intervalOrLong(left) + ", " + intervalOrLong(right) + ")");
        }
        String value = switch (type.getSqlTypeName()) {
            case DOUBLE, FLOAT, REAL -> {
                String l = toDouble(left);
                String r = toDouble(right);
                yield switch (kind) {
                    case PLUS -> "(" + l + " + " + r + ")";
                    case MINUS -> "(" + l + " - " + r + ")";
                    case TIMES -> "(" + l + " * " + r + ")";
                    case DIVIDE -> F + "divideDouble(" + l + ", " + r + ")";
                    default -> F + "modDouble(" + l + ", " + r + ")";
                };
            }
            case DECIMAL -> decimalArithmetic(kind, left, right, type);
            case TINYINT, SMALLINT, INTEGER, BIGINT -> {
                if (kind == SqlKind.MOD && (a.getSqlTypeName() == SqlTypeName.DECIMAL || b.getSqlTypeName() == SqlTypeName.DECIMAL)) {
                    yield decimalModAsInteger(left, right, type);
                }
                String l = "((long) " + integral(left) + ")";
                String r = "((long) " + integral(right) + ")";
                String op = switch (kind) {
                    case PLUS -> "add";
                    case MINUS -> "subtract";
                    case TIMES -> "multiply";
                    case DIVIDE -> "divide";
                    default -> "mod";
                };
                String result = F + op + "(" + l + ", " + r + ")";
                if (type.getSqlTypeName() != SqlTypeName.BIGINT) {
                    result = F + "checkInt(" + result + ", \"" + type.getSqlTypeName() + "\")";
                }
                yield result;
            }
            default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "Arithmetic on " + type + " is not supported");
        };
        return declare(code, type, isNull, value);
    }

    private String integral(Value value)
    {
        if (value.type().getSqlTypeName() == SqlTypeName.DECIMAL) {
            return decimals() + "decimalToLong(" + value.value() + ", " + value.type().getScale() + ")";
        }
        return value.value();
    }

    private String intervalOrLong(Value value)
    {
        if (value.type().getSqlTypeName() == SqlTypeName.DECIMAL) {
            return decimals() + "decimalToLong(" + value.value() + ", " + value.type().getScale() + ")";
        }
        return "((long) " + value.value() + ")";
    }

    private String decimalArithmetic(SqlKind kind, Value left, Value right, RelDataType type)
    {
        int scale = type.getScale();
        int scaleA = left.type().getSqlTypeName() == SqlTypeName.DECIMAL ? left.type().getScale() : 0;
        int scaleB = right.type().getSqlTypeName() == SqlTypeName.DECIMAL ? right.type().getScale() : 0;
        if (kind(left.type()) == JavaKind.DOUBLE || kind(right.type()) == JavaKind.DOUBLE) {
            throw new OntulException(ErrorCode.INTERNAL_ERROR, "Internal error (this is a bug in Ontul): DOUBLE operand in DECIMAL arithmetic");
        }
        String d = decimals();
        String result = switch (kind) {
            case PLUS -> d + "decimalAdd(" + toDecimal(left, scale) + ", " + toDecimal(right, scale) + ")";
            case MINUS -> d + "decimalSubtract(" + toDecimal(left, scale) + ", " + toDecimal(right, scale) + ")";
            case TIMES -> {
                String product = d + "decimalMultiply(" + toDecimal(left, scaleA) + ", " + toDecimal(right, scaleB) + ")";
                yield scaleA + scaleB == scale ? product : d + "rescale(" + product + ", " + (scaleA + scaleB) + ", " + scale + ")";
            }
            case DIVIDE -> d + "decimalDivide(" + toDecimal(left, scaleA) + ", " + scaleA + ", " + toDecimal(right, scaleB) + ", " + scaleB + ", " + scale + ")";
            default -> d + "decimalMod(" + toDecimal(left, scaleA) + ", " + scaleA + ", " + toDecimal(right, scaleB) + ", " + scaleB + ", " + scale + ")";
        };
        if (type.getPrecision() < 19 || parts.wideDecimals) {
            // a long always holds 18 digits; a wide value is checked against its type's precision (38 at most)
            result = d + "checkPrecision(" + result + ", " + type.getPrecision() + ", " + scale + ")";
        }
        return result;
    }

    /**
     * MOD of whole DECIMALs (scale 0), which SQL types as the divisor's integer type: computed as
     * DECIMALs (the dividend may have up to 38 digits), the remainder then narrowed.
     */
    private String decimalModAsInteger(Value left, Value right, RelDataType type)
    {
        RelDataType decimal = rexBuilder.getTypeFactory().createSqlType(SqlTypeName.DECIMAL, 38, 0);
        String remainder = integral(new Value("false", decimalArithmetic(SqlKind.MOD, left, right, decimal), decimal));
        return type.getSqlTypeName() == SqlTypeName.BIGINT ? remainder : F + "checkInt(" + remainder + ", \"" + type.getSqlTypeName() + "\")";
    }

    private static boolean isDatetime(RelDataType type)
    {
        return switch (type.getSqlTypeName()) {
            case DATE, TIME, TIMESTAMP, TIMESTAMP_TZ -> true;
            default -> false;
        };
    }

    /** TIMESTAMP or TIMESTAMP WITH TIME ZONE: both a long of epoch milliseconds or microseconds (UTC for the latter). */
    private static boolean isTimestamp(RelDataType type)
    {
        return type.getSqlTypeName() == SqlTypeName.TIMESTAMP || type.getSqlTypeName() == SqlTypeName.TIMESTAMP_TZ;
    }

    private Value datetimeArithmetic(RexCall call, SqlKind kind, Value left, Value right, StringBuilder code)
    {
        RelDataType type = call.getType();
        String isNull = left.isNull() + " || " + right.isNull();
        Value datetime = isDatetime(left.type()) ? left : right;
        Value other = datetime == left ? right : left;
        if (isDatetime(other.type())) {
            // datetime - datetime: an interval
            boolean dates = left.type().getSqlTypeName() == SqlTypeName.DATE;
            String difference = dates
                    ? "((long) " + left.value() + " - (long) " + right.value() + ")"
                    : "(" + left.value() + " - " + right.value() + ")";
            if (isYearMonth(type)) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "Year-month difference between datetimes is not supported");
            }
            String millis = dates ? difference + " * 86400000L" : (isMicros(left.type()) ? difference + " / 1000L" : difference);
            if (isInterval(type)) {
                return declare(code, type, isNull, millis);
            }
            return declare(code, type, isNull, cast(millis, call.operands.get(0).getType(), type));
        }
        String amount = "((long) " + other.value() + ")";
        if (kind == SqlKind.MINUS) {
            amount = F + "negate(" + amount + ")";
        }
        RelDataType datetimeType = datetime.type();
        String value = switch (datetimeType.getSqlTypeName()) {
            case DATE -> isYearMonth(other.type())
                    ? F + "addMonthsToDate(" + datetime.value() + ", " + amount + ")"
                    : F + "addMillisToDate(" + datetime.value() + ", " + amount + ")";
            case TIMESTAMP, TIMESTAMP_TZ -> isYearMonth(other.type())
                    ? F + "addMonthsToTimestamp(" + datetime.value() + ", " + amount + ", " + isMicros(datetimeType) + ")"
                    : "(" + datetime.value() + " + " + amount + (isMicros(datetimeType) ? " * 1000L" : "") + ")";
            default -> "((int) Math.floorMod((long) " + datetime.value() + " + " + amount + ", 86400000L))";
        };
        if (type.getSqlTypeName() != datetimeType.getSqlTypeName()) {
            value = cast(value, datetimeType, type);
        }
        return declare(code, type, isNull, value);
    }

    // ---- casts

    /** Java expression converting a non-null value of {@code from} to {@code to}. */
    String cast(String v, RelDataType from, RelDataType to)
    {
        SqlTypeName source = from.getSqlTypeName();
        SqlTypeName target = to.getSqlTypeName();
        String targetName = ArrowTypes.sqlName(to);
        JavaKind sourceKind = kind(from);
        if (source == SqlTypeName.NULL) {
            return kind(to).zero;
        }
        switch (target) {
            case ARRAY:
                if (source != SqlTypeName.ARRAY) {
                    throw cannotCast(from, to);
                }
                return castArray(v, from, to);
            case BOOLEAN:
                return switch (sourceKind) {
                    case BOOLEAN -> v;
                    case STRING -> F + "parseBoolean(" + v + ")";
                    default -> "(" + v + " != 0)";
                };
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT: {
                String asLong = switch (source) {
                    case DECIMAL -> decimals() + "decimalToLong(" + v + ", " + from.getScale() + ")";
                    case REAL, FLOAT, DOUBLE -> F + "doubleToLong(" + v + ", \"" + targetName + "\")";
                    case CHAR, VARCHAR -> F + "parseLong(" + v + ", \"" + targetName + "\")";
                    case BOOLEAN -> "(" + v + " ? 1L : 0L)";
                    default -> "((long) " + v + ")";
                };
                if (target == SqlTypeName.BIGINT) {
                    return asLong;
                }
                if (source == target) {
                    return v;
                }
                return F + "checkInt(" + asLong + ", \"" + targetName + "\")";
            }
            case DECIMAL: {
                int p = to.getPrecision();
                int s = to.getScale();
                String d = decimals();
                return switch (source) {
                    case DECIMAL -> d + "checkPrecision(" + d + "rescale(" + v + ", " + from.getScale() + ", " + s + "), " + p + ", " + s + ")";
                    case REAL, FLOAT, DOUBLE -> d + "doubleToDecimal(" + v + ", " + p + ", " + s + ")";
                    case CHAR, VARCHAR -> d + "parseDecimal(" + v + ", " + p + ", " + s + ")";
                    case BOOLEAN -> decimalOfLong("(" + v + " ? 1L : 0L)", s);
                    default -> d + "checkPrecision(" + decimalOfLong("(long) " + v, s) + ", " + p + ", " + s + ")";
                };
            }
            case REAL:
            case FLOAT:
            case DOUBLE: {
                String d = switch (source) {
                    case DECIMAL -> decimals() + "decimalToDouble(" + v + ", " + from.getScale() + ")";
                    case CHAR, VARCHAR -> F + "parseDouble(" + v + ", \"" + targetName + "\")";
                    case BOOLEAN -> "(" + v + " ? 1.0 : 0.0)";
                    default -> "((double) " + v + ")";
                };
                return target == SqlTypeName.REAL ? "((double) (float) " + d + ")" : d;
            }
            case CHAR:
            case VARCHAR: {
                String text = switch (source) {
                    case CHAR, VARCHAR -> v;
                    case DECIMAL -> decimals() + "decimalToString(" + v + ", " + from.getScale() + ")";
                    case REAL, FLOAT, DOUBLE -> F + "doubleToString(" + v + ")";
                    case DATE -> F + "dateToString(" + v + ")";
                    case TIME -> F + "timeToString(" + v + ")";
                    case TIMESTAMP -> F + "timestampToString(" + v + ", " + isMicros(from) + ")";
                    case TIMESTAMP_TZ -> ZONED + "format(" + v + ", " + isMicros(from) + ")";
                    case BOOLEAN -> "(" + v + " ? \"true\" : \"false\")";
                    case UUID -> v;
                    case BINARY, VARBINARY -> BINARY + "castToText(" + v + ")";
                    default -> "String.valueOf(" + v + ")";
                };
                if (target == SqlTypeName.CHAR) {
                    return F + "padChar(" + text + ", " + to.getPrecision() + ")";
                }
                if (source == SqlTypeName.CHAR && !v.startsWith("\"")) {
                    // as in PostgreSQL: the padding of a CHAR value is not part of it; a literal
                    // (typed CHAR by Calcite, emitted as a Java string literal) keeps its spaces
                    text = F + "stripTrailingSpaces(" + text + ")";
                }
                if (to.getPrecision() > 0 && to.getPrecision() < (1 << 20) && (source == SqlTypeName.CHAR || source == SqlTypeName.VARCHAR)) {
                    return F + "truncate(" + text + ", " + to.getPrecision() + ")";
                }
                return text;
            }
            case BINARY:
            case VARBINARY:
                return switch (source) {
                    case BINARY, VARBINARY -> v;
                    case CHAR, VARCHAR -> BINARY + "toUtf8(" + v + ")";
                    case UUID -> BINARY + "bytesOfUuid(" + v + ")";
                    default -> throw cannotCast(from, to);
                };
            case UUID:
                return switch (source) {
                    case UUID -> v;
                    case CHAR, VARCHAR -> BINARY + "parseUuid(" + v + ")";
                    case BINARY, VARBINARY -> BINARY + "uuidOfBytes(" + v + ")";
                    default -> throw cannotCast(from, to);
                };
            case DATE:
                return switch (source) {
                    case DATE -> v;
                    case CHAR, VARCHAR -> F + "parseDate(" + v + ")";
                    case TIMESTAMP, TIMESTAMP_TZ -> F + "timestampToDate(" + v + ", " + isMicros(from) + ")";
                    default -> throw cannotCast(from, to);
                };
            case TIME:
                return switch (source) {
                    case TIME -> v;
                    case CHAR, VARCHAR -> F + "parseTime(" + v + ")";
                    case TIMESTAMP, TIMESTAMP_TZ -> "((int) (Math.floorMod(" + v + ", " + (isMicros(from) ? "86400000000L" : "86400000L") + ")" + (isMicros(from) ? " / 1000L" : "") + "))";
                    default -> throw cannotCast(from, to);
                };
            case TIMESTAMP:
                return switch (source) {
                    // with a time zone: the time in UTC, the session's time zone
                    case TIMESTAMP, TIMESTAMP_TZ -> rescaleTimestamp(v, from, to);
                    case DATE -> F + "dateToTimestamp(" + v + ", " + isMicros(to) + ")";
                    case CHAR, VARCHAR -> F + "parseTimestamp(" + v + ", " + isMicros(to) + ")";
                    default -> throw cannotCast(from, to);
                };
            case TIMESTAMP_TZ:
                return switch (source) {
                    case TIMESTAMP, TIMESTAMP_TZ -> rescaleTimestamp(v, from, to);
                    case DATE -> F + "dateToTimestamp(" + v + ", " + isMicros(to) + ")";
                    case CHAR, VARCHAR -> ZONED + "parse(" + v + ", " + isMicros(to) + ")";
                    default -> throw cannotCast(from, to);
                };
            default:
                if (isInterval(to)) {
                    if (isInterval(from)) {
                        return v;
                    }
                    if (isNumeric(from)) {
                        return "((long) " + integral(new Value("false", v, from)) + ")";
                    }
                }
                throw cannotCast(from, to);
        }
    }

    private static OntulException cannotCast(RelDataType from, RelDataType to)
    {
        return new OntulException(ErrorCode.TYPE_MISMATCH, "Cannot cast " + ArrowTypes.sqlName(from) + " to " + ArrowTypes.sqlName(to));
    }

    // ---- functions

    private Value like(RexCall call, StringBuilder code)
    {
        boolean negated = call.getOperator() instanceof SqlLikeOperator like && like.isNegated();
        if (call.operands.get(0) instanceof RexInputRef ref && ref.getType().getSqlTypeName() == SqlTypeName.VARCHAR
                && call.operands.get(1) instanceof RexLiteral pattern && !pattern.isNull() && call.operands.size() == 2
                && LikeMatcher.compile(pattern.getValueAs(String.class), null).matchesBytes()) {
            String matcher = initializedField("io.ontul.engine.expression.LikeMatcher", "like",
                    "io.ontul.engine.expression.LikeMatcher.compile(" + stringSource(pattern.getValueAs(String.class)) + ", null)");
            String test = matcher + ".matches(in" + ref.getIndex() + ", i)";
            return declare(code, call.getType(), nullFlag(ref.getIndex()), negated ? "!" + test : test);
        }
        Value value = generate(call.operands.get(0), code);
        RexNode patternNode = call.operands.get(1);
        RexNode escapeNode = call.operands.size() > 2 ? call.operands.get(2) : null;
        String match;
        String isNull;
        if (patternNode instanceof RexLiteral pattern && (escapeNode == null || escapeNode instanceof RexLiteral)) {
            if (pattern.isNull() || (escapeNode != null && ((RexLiteral) escapeNode).isNull())) {
                return new Value("true", "false", call.getType());
            }
            String escape = escapeNode == null ? null : ((RexLiteral) escapeNode).getValueAs(String.class);
            LikeMatcher.compile(pattern.getValueAs(String.class), escape); // validate now: errors name the pattern
            String matcher = initializedField("io.ontul.engine.expression.LikeMatcher", "like",
                    "io.ontul.engine.expression.LikeMatcher.compile(" + stringSource(pattern.getValueAs(String.class)) + ", " + (escape == null ? "null" : stringSource(escape)) + ")");
            match = matcher + ".matches(" + value.value() + ")";
            isNull = value.isNull();
        }
        else {
            Value pattern = generate(patternNode, code);
            Value escape = escapeNode == null ? null : generate(escapeNode, code);
            match = "io.ontul.engine.expression.LikeMatcher.compile(" + pattern.value() + ", " + (escape == null ? "null" : escape.value()) + ").matches(" + value.value() + ")";
            isNull = value.isNull() + " || " + pattern.isNull() + (escape == null ? "" : " || " + escape.isNull());
        }
        return declare(code, call.getType(), isNull, negated ? "!" + match : match);
    }

    private Value extract(RexCall call, StringBuilder code)
    {
        TimeUnitRange unit = (TimeUnitRange) ((RexLiteral) call.operands.get(0)).getValue();
        Value operand = generate(call.operands.get(1), code);
        RelDataType from = operand.type();
        String unitName = unit.name();
        String value = switch (from.getSqlTypeName()) {
            case DATE -> F + "extractFromDate(\"" + unitName + "\", " + operand.value() + ")";
            case TIMESTAMP, TIMESTAMP_TZ -> F + "extractFromTimestamp(\"" + unitName + "\", " + operand.value() + ", " + isMicros(from) + ")";
            case TIME -> F + "extractFromTime(\"" + unitName + "\", " + operand.value() + ")";
            default -> {
                if (isInterval(from)) {
                    yield F + "extractFromInterval(\"" + unitName + "\", " + operand.value() + ", " + isYearMonth(from) + ")";
                }
                throw new OntulException(ErrorCode.TYPE_MISMATCH, "Cannot extract " + unitName + " from " + ArrowTypes.sqlName(from));
            }
        };
        return declare(code, call.getType(), operand.isNull(), castLong(value, call.getType()));
    }

    private String castLong(String longValue, RelDataType type)
    {
        return switch (type.getSqlTypeName()) {
            case BIGINT -> longValue;
            case INTEGER, SMALLINT, TINYINT -> "((int) " + longValue + ")";
            case DECIMAL -> decimalOfLong(longValue, type.getScale());
            case DOUBLE, REAL, FLOAT -> "((double) " + longValue + ")";
            default -> longValue;
        };
    }

    private Value trim(RexCall call, StringBuilder code)
    {
        SqlTrimFunction.Flag flag = (SqlTrimFunction.Flag) ((RexLiteral) call.operands.get(0)).getValue();
        Value characters = generate(call.operands.get(1), code);
        Value operand = generate(call.operands.get(2), code);
        return declare(code, call.getType(), characters.isNull() + " || " + operand.isNull(),
                F + "trim(\"" + flag.name() + "\", " + characters.value() + ", " + operand.value() + ")");
    }

    /**
     * {@code concat_ws(separator, s1, s2, ...)}: the non-NULL strings joined by the separator,
     * NULL only when the separator is (Trino's, PostgreSQL's and DuckDB's).
     */
    private Value concatWithSeparator(RexCall call, StringBuilder code)
    {
        Value separator = generate(call.operands.get(0), code);
        String joiner = "j" + newVariable();
        code.append("java.util.StringJoiner ").append(joiner).append(" = new java.util.StringJoiner(")
                .append(separator.isNull()).append(" ? \"\" : ").append(stringOf(separator, call.getType())).append(");\n");
        for (RexNode operand : call.operands.subList(1, call.operands.size())) {
            Value value = generate(operand, code);
            if (!value.isNull().equals("true")) {
                code.append("if (!(").append(value.isNull()).append(")) { ").append(joiner).append(".add(").append(stringOf(value, call.getType())).append("); }\n");
            }
        }
        return declare(code, call.getType(), separator.isNull(), joiner + ".toString()");
    }

    /**
     * Trino's {@code try(x)}: x, or NULL where computing it fails on the data (division by zero,
     * overflow, a value that does not cast or parse, an invalid argument); other errors propagate.
     * x is computed in a method of its own, so everything it computes (constants hoisted from it
     * included) is inside the try.
     */
    private Value tryExpression(RexCall call, StringBuilder code)
    {
        StringBuilder inner = new StringBuilder();
        Value value = inMethod((scope, methodCode) -> scope.generate(call.operands.get(0), methodCode), inner);
        JavaKind kind = kind(call.getType());
        String name = newVariable();
        code.append(kind.javaType).append(" v").append(name).append(" = ").append(kind.zero).append(";\n");
        code.append("boolean n").append(name).append(" = true;\n");
        code.append("try {\n").append(inner)
                .append("n").append(name).append(" = ").append(value.isNull()).append(";\n")
                .append("v").append(name).append(" = ").append(value.value()).append(";\n")
                .append("} catch (RuntimeException e) { ").append(F).append("rethrowUnlessDataError(e); }\n");
        return new Value("n" + name, "v" + name, call.getType());
    }

    /**
     * SQL's {@code JSON_VALUE(json, path [RETURNING type] [behavior ON EMPTY] [behavior ON ERROR])}
     * and {@code JSON_QUERY(json, path [wrapper] [behavior ON EMPTY] [behavior ON ERROR])}
     * ({@link JsonPaths#valueOutcome}, {@link JsonPaths#queryOutcome}): on an empty result (a lax
     * path that finds nothing) and on an error (text that is not JSON, a value of the wrong kind,
     * a strict path that finds nothing, a RETURNING cast that fails) the clause decides: NULL (the
     * default), ERROR, DEFAULT expr (JSON_VALUE) or EMPTY ARRAY / EMPTY OBJECT (JSON_QUERY).
     */
    private Value jsonValueOrQuery(RexCall call, boolean value, StringBuilder code)
    {
        String function = value ? "JSON_VALUE" : "JSON_QUERY";
        RelDataType type = call.getType();
        List<RexNode> operands = call.operands;
        String wrapper = "WITHOUT_ARRAY";
        int at = 2;
        if (!value && operands.size() > 2) {
            wrapper = symbol(operands.get(2));
            at = 3;
        }
        // behaviours in the order written: ON EMPTY first, then ON ERROR; defaults NULL
        String[] behaviors = {"NULL", "NULL"};
        RexNode[] defaults = new RexNode[2];
        if (!value && operands.size() == 5) {
            behaviors[0] = symbol(operands.get(3));
            behaviors[1] = symbol(operands.get(4));
        }
        else {
            while (at < operands.size()) {
                String behavior = symbol(operands.get(at++));
                RexNode defaultValue = null;
                if (behavior.equals("DEFAULT")) {
                    defaultValue = operands.get(at++);
                }
                int which = symbol(operands.get(at++)).equals("EMPTY") ? 0 : 1;
                behaviors[which] = behavior;
                defaults[which] = defaultValue;
            }
        }
        Value json = generate(operands.get(0), code);
        Value path = generate(operands.get(1), code);
        // a DEFAULT is computed only where its clause applies (DEFAULT 1 / d fails no row that has a value)
        Value[] defaultValues = new Value[2];
        StringBuilder[] defaultCode = {new StringBuilder(), new StringBuilder()};
        for (int i = 0; i < 2; i++) {
            if (defaults[i] != null) {
                Value generated = generate(defaults[i], defaultCode[i]);
                defaultValues[i] = new Value(generated.isNull(), generated.isNull().equals("true") ? kind(type).zero : convert(generated, type), type);
            }
        }
        JavaKind kind = kind(type);
        String name = newVariable();
        String outcome = "o" + name;
        String isNull = "n" + name;
        String result = "v" + name;
        String paths = "io.ontul.engine.expression.JsonPaths.";
        code.append("boolean ").append(isNull).append(" = true;\n");
        code.append(kind.javaType).append(" ").append(result).append(" = ").append(kind.zero).append(";\n");
        code.append("if (!(").append(json.isNull()).append(" || ").append(path.isNull()).append(")) {\n");
        code.append("Object ").append(outcome).append(" = ").append(paths).append(value ? "valueOutcome(" + json.value() + ", " + path.value() + ")"
                : "queryOutcome(" + json.value() + ", " + path.value() + ", \"" + wrapper + "\")").append(";\n");
        if (kind != JavaKind.STRING) {
            // RETURNING a type other than text: a cast that fails is an error of the data
            code.append("if (").append(outcome).append(" instanceof String) {\n");
            code.append("try {\n").append(result).append(" = ").append(cast("((String) " + outcome + ")", json.type(), type)).append(";\n")
                    .append(isNull).append(" = false;\n}\n");
            code.append(RETHROW_WIDE).append("catch (RuntimeException e) {\n").append(outcome).append(" = new ").append(paths).append("Failure(\"").append(function)
                    .append(": \" + e.getMessage());\n}\n}\n");
        }
        else {
            code.append("if (").append(outcome).append(" instanceof String) {\n").append(result).append(" = (String) ").append(outcome).append(";\n")
                    .append(isNull).append(" = false;\n}\n");
        }
        String[] conditions = {outcome + " == " + paths + "EMPTY", outcome + " instanceof " + paths + "Failure"};
        for (int i = 0; i < 2; i++) {
            code.append("if (").append(conditions[i]).append(") {\n");
            switch (behaviors[i]) {
                case "NULL" -> {
                }
                case "ERROR" -> code.append("throw ").append(i == 0
                        ? paths + "emptyError(\"" + function + "\", " + path.value() + ")"
                        : paths + "error((" + paths + "Failure) " + outcome + ")").append(";\n");
                case "DEFAULT" -> code.append(defaultCode[i]).append(isNull).append(" = ").append(defaultValues[i].isNull()).append(";\n")
                        .append(result).append(" = ").append(defaultValues[i].value()).append(";\n");
                case "EMPTY_ARRAY", "EMPTY_OBJECT" -> code.append(isNull).append(" = false;\n").append(result).append(" = \"")
                        .append(behaviors[i].equals("EMPTY_ARRAY") ? "[]" : "{}").append("\";\n");
                default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, function + " with " + behaviors[i] + " ON " + (i == 0 ? "EMPTY" : "ERROR") + " is not supported");
            }
            code.append("}\n");
        }
        code.append("}\n");
        return new Value(isNull, result, type);
    }

    /** The name of a symbol operand (a flag such as NULL, ERROR, DEFAULT, EMPTY, WITHOUT_ARRAY). */
    private static String symbol(RexNode operand)
    {
        if (operand instanceof RexLiteral literal && literal.getValue() instanceof Enum<?> flag) {
            return flag.name();
        }
        throw new OntulException(ErrorCode.NOT_SUPPORTED, "Unexpected JSON function clause " + operand);
    }

    /** {@code format(format, args...)}: NULL arguments are passed as null (printed "null", as Trino does); a NULL format is NULL. */
    private Value format(RexCall call, StringBuilder code)
    {
        Value format = generate(call.operands.get(0), code);
        if (format.isNull().equals("true")) {
            return new Value("true", kind(call.getType()).zero, call.getType());
        }
        List<String> arguments = new ArrayList<>();
        for (RexNode operand : call.operands.subList(1, call.operands.size())) {
            Value value = generate(operand, code);
            String boxed = switch (value.type().getSqlTypeName()) {
                case DECIMAL -> decimals() + "toBigDecimal(" + value.value() + ", " + value.type().getScale() + ")";
                case DATE -> "java.time.LocalDate.ofEpochDay(" + value.value() + ")";
                case TIMESTAMP -> F + "toLocalDateTime(" + value.value() + ", " + isMicros(value.type()) + ")";
                case TIMESTAMP_TZ -> ZONED + "toZonedDateTime(" + value.value() + ", " + isMicros(value.type()) + ")";
                case TINYINT, SMALLINT, INTEGER, BIGINT, BOOLEAN, DOUBLE, FLOAT, REAL, CHAR, VARCHAR -> "(Object) (" + value.value() + ")";
                case NULL -> "null";
                default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "FORMAT of a " + value.type().getSqlTypeName() + " argument is not supported");
            };
            arguments.add("(" + value.isNull() + ") ? null : " + boxed);
        }
        return declare(code, call.getType(), format.isNull(), F + "format(" + format.value() + ", new Object[] {" + String.join(", ", arguments) + "})");
    }

    private String stringOf(Value value, RelDataType varchar)
    {
        return kind(value.type()) == JavaKind.STRING ? value.value() : cast(value.value(), value.type(), varchar);
    }

    private Value floorCeil(RexCall call, boolean floor, StringBuilder code)
    {
        if (call.operands.size() != 1) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, (floor ? "FLOOR" : "CEIL") + " with a time unit is not supported");
        }
        Value operand = generate(call.operands.get(0), code);
        RelDataType type = call.getType();
        String value = switch (operand.type().getSqlTypeName()) {
            case DECIMAL -> {
                String d = decimals();
                String whole = d + (floor ? "floorDecimal(" : "ceilDecimal(") + operand.value() + ", " + operand.type().getScale() + ")";
                if (type.getSqlTypeName() == SqlTypeName.DECIMAL) {
                    yield d + "rescale(" + whole + ", 0, " + type.getScale() + ")";
                }
                yield parts.wideDecimals ? WIDE + "decimalToLong(" + whole + ", 0)" : whole;
            }
            case DOUBLE, REAL, FLOAT -> "Math." + (floor ? "floor(" : "ceil(") + operand.value() + ")";
            default -> operand.value();
        };
        return declare(code, type, operand.isNull(), value);
    }

    private Value function(RexCall call, StringBuilder code)
    {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        RelDataType type = call.getType();
        if (name.equals("CONCAT_WS")) {
            return concatWithSeparator(call, code);
        }
        if (name.equals("FORMAT")) {
            return format(call, code);
        }
        if (name.equals("TRY")) {
            return tryExpression(call, code);
        }
        if (name.equals("JSON_VALUE") || name.equals("JSON_QUERY")) {
            return jsonValueOrQuery(call, name.equals("JSON_VALUE"), code);
        }
        List<Value> args = new ArrayList<>();
        List<String> nulls = new ArrayList<>();
        for (RexNode operand : call.operands) {
            Value value = generate(operand, code);
            if (value.isNull().equals("true")) {
                // every function here returns NULL for a NULL argument
                return new Value("true", kind(type).zero, type);
            }
            args.add(value);
            nulls.add(value.isNull());
        }
        String isNull = nulls.isEmpty() ? "false" : String.join(" || ", nulls);
        if (name.equals("JSON_EXTRACT_SCALAR") || name.equals("JSON_EXTRACT")) {
            // NULL also when the path finds nothing
            String method = name.equals("JSON_EXTRACT") ? "extract" : "extractScalar";
            Value extracted = declare(code, type, isNull, "io.ontul.engine.expression.JsonPaths." + method + "(" + args.get(0).value() + ", " + args.get(1).value() + ")");
            return declare(code, type, extracted.isNull() + " || " + extracted.value() + " == null", extracted.value());
        }
        switch (name) {
            case "ITEM" -> {
                if (args.get(0).type().getSqlTypeName() != SqlTypeName.ARRAY) {
                    throw new OntulException(ErrorCode.NOT_SUPPORTED, "Subscripts of " + ArrowTypes.sqlName(args.get(0).type()) + " are not supported");
                }
                return unboxed(code, type, isNull, ARRAYS + "subscript(" + args.get(0).value() + ", " + integral(args.get(1)) + ")");
            }
            case "ELEMENT_AT" -> {
                return unboxed(code, type, isNull, ARRAYS + "elementAt(" + args.get(0).value() + ", " + integral(args.get(1)) + ")");
            }
            case "CONTAINS" -> {
                // elements and value compared in the type both fit (contains(ARRAY[1, 2], 1.5) is false, not a rounded match)
                RelDataType element = args.get(0).type().getComponentType();
                RelDataType common = rexBuilder.getTypeFactory().leastRestrictive(List.of(element, args.get(1).type()));
                if (common == null) {
                    common = element;
                }
                String array = castArray(args.get(0).value(), args.get(0).type(), rexBuilder.getTypeFactory().createArrayType(common, -1));
                return unboxed(code, type, isNull, ARRAYS + "contains(" + array + ", " + boxElement(convert(args.get(1), common), common) + ")");
            }
            default -> {
            }
        }
        if (name.equals("REGEXP_EXTRACT")) {
            // NULL also when nothing matches
            Value extracted = declare(code, type, isNull, F + "regexpExtract(" + args.get(0).value() + ", " + args.get(1).value() + ", "
                    + (args.size() > 2 ? integral(args.get(2)) : "0L") + ")");
            return declare(code, type, extracted.isNull() + " || " + extracted.value() + " == null", extracted.value());
        }
        String value = switch (name) {
            case "UPPER" -> args.get(0).value() + ".toUpperCase(java.util.Locale.ROOT)";
            case "LOWER" -> args.get(0).value() + ".toLowerCase(java.util.Locale.ROOT)";
            case "||", "CONCAT" -> {
                if (kind(type) == JavaKind.BYTES) {
                    yield BINARY + "concat(" + String.join(", ", args.stream().map(arg -> cast(arg.value(), arg.type(), type)).toList()) + ")";
                }
                StringBuilder builder = new StringBuilder("(");
                for (int i = 0; i < args.size(); i++) {
                    if (i > 0) {
                        builder.append(" + ");
                    }
                    builder.append(kind(args.get(i).type()) == JavaKind.STRING ? args.get(i).value()
                            : cast(args.get(i).value(), args.get(i).type(), type));
                }
                yield builder.append(")").toString();
            }
            case "SUBSTR" -> (kind(type) == JavaKind.BYTES ? BINARY : F) + "substr(" + args.get(0).value() + ", " + integral(args.get(1)) + ", "
                    + (args.size() > 2 ? integral(args.get(2)) : "Integer.MAX_VALUE") + ")";
            case "SUBSTRING" -> kind(type) == JavaKind.BYTES
                    ? BINARY + "substring(" + args.get(0).value() + ", " + integral(args.get(1)) + (args.size() > 2 ? ", " + integral(args.get(2)) : "") + ")"
                    : args.size() == 2
                    ? F + "substring(" + args.get(0).value() + ", " + integral(args.get(1)) + ")"
                    : F + "substring(" + args.get(0).value() + ", " + integral(args.get(1)) + ", " + integral(args.get(2)) + ")";
            case "OCTET_LENGTH" -> castLong("((long) " + args.get(0).value() + ".length)", type);
            case "CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH" -> kind(args.get(0).type()) == JavaKind.BYTES
                    ? castLong("((long) " + args.get(0).value() + ".length)", type)
                    : castLong(F + "charLength(" + args.get(0).value() + ")", type);
            case "REPLACE" -> args.get(0).value() + ".replace(" + args.get(1).value() + ", " + args.get(2).value() + ")";
            case "SPLIT_PART" -> F + "splitPart(" + args.get(0).value() + ", " + args.get(1).value() + ", " + integral(args.get(2)) + ")";
            case "STRPOS" -> castLong(F + "position(" + args.get(1).value() + ", " + args.get(0).value() + ")", type);
            case "STARTS_WITH" -> args.get(0).value() + ".startsWith(" + args.get(1).value() + ")";
            case "REVERSE" -> (kind(type) == JavaKind.BYTES ? BINARY : F) + "reverse(" + args.get(0).value() + ")";
            case "TO_HEX" -> BINARY + "toHex(" + args.get(0).value() + ")";
            case "FROM_HEX" -> BINARY + "fromHex(" + args.get(0).value() + ")";
            case "TO_BASE64" -> BINARY + "toBase64(" + args.get(0).value() + ")";
            case "FROM_BASE64" -> BINARY + "fromBase64(" + args.get(0).value() + ")";
            case "TO_UTF8" -> BINARY + "toUtf8(" + args.get(0).value() + ")";
            case "FROM_UTF8" -> BINARY + "fromUtf8(" + args.get(0).value() + ")";
            case "MD5", "SHA1", "SHA256", "SHA512" -> BINARY + name.toLowerCase(Locale.ROOT) + "(" + args.get(0).value() + ")";
            case "CRC32" -> BINARY + "crc32(" + args.get(0).value() + ")";
            case "UUID" -> BINARY + "randomUuid()";
            case "AT TIME ZONE" -> ZONED + (args.get(0).type().getSqlTypeName() == SqlTypeName.TIMESTAMP_TZ ? "toLocal(" : "fromLocal(")
                    + rescaleTimestamp(args.get(0).value(), args.get(0).type(), type) + ", " + isMicros(type) + ", " + args.get(1).value() + ")";
            case "$TIMESTAMP_TZ_FROM_TEXT" -> ZONED + "parse(" + args.get(0).value() + ", " + isMicros(type) + ", " + args.get(1).value() + ")";
            case "$TIMESTAMP_TZ_TO_TEXT" -> ZONED + "format(" + args.get(0).value() + ", " + isMicros(args.get(0).type()) + ", " + args.get(1).value() + ")";
            // the planner writes the session's zone in its place where one is set (plan.SessionTimeZone)
            case "CURRENT_TIMEZONE" -> "\"UTC\"";
            case "WITH_TIMEZONE" -> ZONED + "fromLocal(" + rescaleTimestamp(args.get(0).value(), args.get(0).type(), type) + ", " + isMicros(type) + ", " + args.get(1).value() + ")";
            case "CARDINALITY" -> castLong("((long) " + args.get(0).value() + ".size())", type);
            // each element as its text (CAST AS VARCHAR), as Trino prints it
            case "ARRAY_JOIN" -> ARRAYS + "join(" + castArray(args.get(0).value(), args.get(0).type(),
                    rexBuilder.getTypeFactory().createArrayType(rexBuilder.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), -1)) + ", " + args.get(1).value() + ", " + (args.size() > 2 ? args.get(2).value() : "null") + ")";
            case "LEFT" -> F + "left(" + args.get(0).value() + ", " + integral(args.get(1)) + ")";
            case "RIGHT" -> F + "right(" + args.get(0).value() + ", " + integral(args.get(1)) + ")";
            case "LPAD", "RPAD" -> F + "pad(" + args.get(0).value() + ", " + integral(args.get(1)) + ", " + (args.size() > 2 ? args.get(2).value() : "\" \"")
                    + ", " + name.equals("LPAD") + ")";
            case "ABS" -> switch (kind(type)) {
                case DOUBLE -> "Math.abs(" + args.get(0).value() + ")";
                case INT -> F + "checkInt(Math.abs((long) " + args.get(0).value() + "), \"" + type.getSqlTypeName() + "\")";
                case WIDE_DECIMAL -> WIDE + "abs(" + args.get(0).value() + ")";
                default -> "(" + args.get(0).value() + " < 0 ? " + F + (type.getSqlTypeName() == SqlTypeName.DECIMAL ? "decimalNegate(" : "negate(")
                        + args.get(0).value() + ") : " + args.get(0).value() + ")";
            };
            case "ROUND" -> round(args, type);
            case "MOD" -> {
                yield switch (type.getSqlTypeName()) {
                    case DECIMAL -> decimalArithmetic(SqlKind.MOD, args.get(0), args.get(1), type);
                    case DOUBLE, REAL, FLOAT -> F + "modDouble(" + toDouble(args.get(0)) + ", " + toDouble(args.get(1)) + ")";
                    case BIGINT, INTEGER, SMALLINT, TINYINT -> args.get(0).type().getSqlTypeName() == SqlTypeName.DECIMAL || args.get(1).type().getSqlTypeName() == SqlTypeName.DECIMAL
                            ? decimalModAsInteger(args.get(0), args.get(1), type)
                            : type.getSqlTypeName() == SqlTypeName.BIGINT
                            ? F + "mod((long) " + args.get(0).value() + ", (long) " + args.get(1).value() + ")"
                            : "((int) " + F + "mod((long) " + args.get(0).value() + ", (long) " + args.get(1).value() + "))";
                    default -> "((int) " + F + "mod((long) " + args.get(0).value() + ", (long) " + args.get(1).value() + "))";
                };
            }
            case "POWER" -> "Math.pow(" + toDouble(args.get(0)) + ", " + toDouble(args.get(1)) + ")";
            case "SQRT" -> "Math.sqrt(" + toDouble(args.get(0)) + ")";
            case "LN" -> "Math.log(" + toDouble(args.get(0)) + ")";
            case "LOG10" -> "Math.log10(" + toDouble(args.get(0)) + ")";
            case "EXP" -> "Math.exp(" + toDouble(args.get(0)) + ")";
            case "LOG" -> args.size() == 1
                    ? "Math.log10(" + toDouble(args.get(0)) + ")"
                    : "(Math.log(" + toDouble(args.get(1)) + ") / Math.log(" + toDouble(args.get(0)) + "))";
            case "TRUNCATE" -> {
                String digits = args.size() > 1 ? integral(args.get(1)) : "0L";
                Value number = args.get(0);
                yield switch (number.type().getSqlTypeName()) {
                    case DECIMAL -> decimals() + "truncateDecimal(" + number.value() + ", " + number.type().getScale() + ", " + digits + ")";
                    case DOUBLE, REAL, FLOAT -> F + "truncateDouble(" + toDouble(number) + ", " + digits + ")";
                    default -> "((" + kind(type).javaType + ") " + F + "truncateLong((long) " + number.value() + ", " + digits + "))";
                };
            }
            case "LOG2" -> "(Math.log(" + toDouble(args.get(0)) + ") / Math.log(2))";
            case "CBRT" -> "Math.cbrt(" + toDouble(args.get(0)) + ")";
            case "WIDTH_BUCKET" -> F + "widthBucket(" + toDouble(args.get(0)) + ", " + toDouble(args.get(1)) + ", " + toDouble(args.get(2)) + ", " + integral(args.get(3)) + ")";
            case "SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "SINH", "COSH", "TANH" -> "Math." + name.toLowerCase(Locale.ROOT) + "(" + toDouble(args.get(0)) + ")";
            case "ATAN2" -> "Math.atan2(" + toDouble(args.get(0)) + ", " + toDouble(args.get(1)) + ")";
            case "COT" -> "(1.0 / Math.tan(" + toDouble(args.get(0)) + "))";
            case "DEGREES" -> "Math.toDegrees(" + toDouble(args.get(0)) + ")";
            case "RADIANS" -> "Math.toRadians(" + toDouble(args.get(0)) + ")";
            case "PI" -> "Math.PI";
            case "DATE_ADD" -> type.getSqlTypeName() == SqlTypeName.DATE
                    ? F + "dateAdd(" + args.get(0).value() + ", " + integral(args.get(1)) + ", " + args.get(2).value() + ")"
                    : F + "timestampAdd(" + args.get(0).value() + ", " + integral(args.get(1)) + ", " + args.get(2).value() + ", " + isMicros(type) + ")";
            case "DATE_FORMAT" -> switch (args.get(0).type().getSqlTypeName()) {
                case DATE -> "io.ontul.engine.expression.MySqlDateFormats.formatDate(" + args.get(0).value() + ", " + args.get(1).value() + ")";
                case TIMESTAMP, TIMESTAMP_TZ -> "io.ontul.engine.expression.MySqlDateFormats.format(" + args.get(0).value() + ", " + isMicros(args.get(0).type()) + ", " + args.get(1).value() + ")";
                default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "DATE_FORMAT of a " + args.get(0).type().getSqlTypeName() + " is not supported");
            };
            case "DATE_PARSE" -> "io.ontul.engine.expression.MySqlDateFormats.parse(" + args.get(0).value() + ", " + args.get(1).value() + ", " + isMicros(type) + ")";
            case "DATE_DIFF" -> args.get(1).type().getSqlTypeName() == SqlTypeName.DATE
                    ? F + "dateDiff(" + args.get(0).value() + ", " + args.get(1).value() + ", " + args.get(2).value() + ")"
                    : F + "timestampDiff(" + args.get(0).value() + ", " + args.get(1).value() + ", " + args.get(2).value() + ", " + isMicros(args.get(1).type()) + ")";
            case "TO_UNIXTIME" -> "(" + args.get(0).value() + " / " + (isMicros(args.get(0).type()) ? "1_000_000.0" : "1000.0") + ")";
            case "FROM_UNIXTIME" -> "((long) Math.floor(" + toDouble(args.get(0)) + " * " + (isMicros(type) ? "1_000_000.0" : "1000.0") + "))";
            case "REGEXP_LIKE" -> F + "regexpLike(" + args.get(0).value() + ", " + args.get(1).value() + ")";
            case "REGEXP_REPLACE" -> F + "regexpReplace(" + args.get(0).value() + ", " + args.get(1).value() + ", " + (args.size() > 2 ? args.get(2).value() : "\"\"") + ")";
            case "GREATEST", "LEAST" -> extreme(args, type, name.equals("GREATEST"));
            case "DATE_TRUNC" -> type.getSqlTypeName() == SqlTypeName.DATE
                    ? F + "truncateDate(" + args.get(0).value() + ", " + args.get(1).value() + ")"
                    : F + "truncateTimestamp(" + args.get(0).value() + ", " + args.get(1).value() + ", " + isMicros(type) + ")";
            case "RAND", "RANDOM" -> "java.util.concurrent.ThreadLocalRandom.current().nextDouble()";
            case "SIGN" -> castLong("((long) Math.signum(" + toDouble(args.get(0)) + "))", type);
            case "CURRENT_DATE" -> String.valueOf(java.time.LocalDate.now().toEpochDay());
            case "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "NOW" -> {
                java.time.LocalDateTime now = java.time.LocalDateTime.now();
                long millis = now.toLocalDate().toEpochDay() * 86_400_000L + now.toLocalTime().toNanoOfDay() / 1_000_000;
                yield (isMicros(type) ? millis * 1000 : millis) + "L";
            }
            case "CURRENT_TIME", "LOCALTIME" -> String.valueOf(java.time.LocalTime.now().toNanoOfDay() / 1_000_000);
            default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "Function " + name + " is not supported");
        };
        return declare(code, type, isNull, value);
    }

    /** {@code ARRAY[a, b, ...]}: each element converted to the element type, NULL elements kept. */
    private Value arrayOf(RexCall call, StringBuilder code)
    {
        RelDataType element = call.getType().getComponentType();
        List<String> boxed = new ArrayList<>();
        for (RexNode operand : call.operands) {
            Value value = generate(operand, code);
            boxed.add(value.isNull().equals("true") ? "null" : "(" + value.isNull() + " ? null : " + boxElement(convert(value, element), element) + ")");
        }
        return declare(code, call.getType(), "false", ARRAYS + "of(new Object[] {" + String.join(", ", boxed) + "})");
    }

    /** A value of {@code type} from an expression giving it boxed, or null (then the value is NULL). */
    private Value unboxed(StringBuilder code, RelDataType type, String isNull, String boxedExpression)
    {
        String name = newVariable();
        code.append("final Object o").append(name).append(" = ").append(isNull).append(" ? null : ").append(boxedExpression).append(";\n");
        String boxed = "o" + name;
        return declare(code, type, boxed + " == null", unbox(boxed, type));
    }

    /** Java expression of {@code type}'s representation from a non-null boxed one ({@link ArrayValues}). */
    private String unbox(String boxed, RelDataType type)
    {
        return switch (kind(type)) {
            case BOOLEAN -> "((Boolean) " + boxed + ").booleanValue()";
            case INT -> "((Number) " + boxed + ").intValue()";
            case LONG -> "((Number) " + boxed + ").longValue()";
            case DOUBLE -> "((Number) " + boxed + ").doubleValue()";
            case STRING -> "((String) " + boxed + ")";
            case BYTES -> "((byte[]) " + boxed + ")";
            case LIST -> "((java.util.List) " + boxed + ")";
            case WIDE_DECIMAL -> WIDE + "ofUnscaled(((Number) " + boxed + ").longValue(), " + type.getScale() + ")";
        };
    }

    /** A non-null value of an array's element type as the array holds it (DECIMAL elements: unscaled longs). */
    private String boxElement(String value, RelDataType element)
    {
        if (kind(element) == JavaKind.WIDE_DECIMAL) {
            return "(Object) Long.valueOf(" + WIDE + "toUnscaledLong(" + value + ", " + element.getScale() + "))";
        }
        // parenthesized: "(Object) -2L" would parse as a subtraction
        return "(Object) (" + value + ")";
    }

    /** A timestamp's long in the unit of {@code to} (milliseconds or microseconds). */
    private static String rescaleTimestamp(String v, RelDataType from, RelDataType to)
    {
        return isMicros(from) == isMicros(to) ? v : isMicros(to) ? "(" + v + " * 1000L)" : "Math.floorDiv(" + v + ", 1000L)";
    }

    /** Whether two array types hold elements of the same type (nullability aside). */
    private static boolean sameElements(RelDataType a, RelDataType b)
    {
        return ArrowTypes.sqlName(a.getComponentType()).equals(ArrowTypes.sqlName(b.getComponentType()));
    }

    /** {@code CAST(array AS T ARRAY)}: each non-NULL element cast, in a method of the kernel. */
    private String castArray(String v, RelDataType from, RelDataType to)
    {
        RelDataType fromElement = from.getComponentType();
        RelDataType toElement = to.getComponentType();
        if (fromElement.getSqlTypeName() == SqlTypeName.NULL || sameElements(from, to)) {
            return v;
        }
        String method = "castArray" + parts.constantCounter++;
        // first: an element that is an array itself adds its own method to the fields
        String element = cast(unbox("e", fromElement), fromElement, toElement);
        parts.fields.append("private java.util.List ").append(method).append("(java.util.List source) {\n")
                .append("Object[] result = new Object[source.size()];\n")
                .append("for (int k = 0; k < result.length; k++) {\n")
                .append("Object e = source.get(k);\n")
                .append("result[k] = e == null ? null : ").append(boxElement(element, toElement)).append(";\n")
                .append("}\n")
                .append("return java.util.Arrays.asList(result);\n}\n");
        return method + "(" + v + ")";
    }

    /** GREATEST or LEAST of arguments cast to the result type (NULL when one is, as in Trino). */
    private String extreme(List<Value> args, RelDataType type, boolean greatest)
    {
        String result = cast(args.get(0).value(), args.get(0).type(), type);
        for (Value arg : args.subList(1, args.size())) {
            String next = cast(arg.value(), arg.type(), type);
            result = switch (kind(type)) {
                case STRING -> F + (greatest ? "greatest(" : "least(") + result + ", " + next + ")";
                case BYTES -> BINARY + (greatest ? "greatest(" : "least(") + result + ", " + next + ")";
                case LIST -> ARRAYS + (greatest ? "greatest(" : "least(") + result + ", " + next + ")";
                case BOOLEAN -> "(" + result + (greatest ? " || " : " && ") + next + ")";
                case WIDE_DECIMAL -> WIDE + (greatest ? "greatest(" : "least(") + result + ", " + next + ")";
                default -> "Math." + (greatest ? "max(" : "min(") + result + ", " + next + ")";
            };
        }
        return result;
    }

    private String round(List<Value> args, RelDataType type)
    {
        Value value = args.get(0);
        String digits = args.size() > 1 ? "(int) " + args.get(1).value() : "0";
        return switch (value.type().getSqlTypeName()) {
            case DECIMAL -> decimals() + "roundDecimal(" + value.value() + ", " + value.type().getScale() + ", " + digits + ", " + type.getScale() + ")";
            case DOUBLE, REAL, FLOAT -> F + "roundDouble(" + value.value() + ", " + digits + ")";
            default -> args.size() > 1
                    ? "((" + kind(type).javaType + ") " + F + "roundDecimal((long) " + value.value() + ", 0, " + digits + ", 0))"
                    : value.value();
        };
    }
}
