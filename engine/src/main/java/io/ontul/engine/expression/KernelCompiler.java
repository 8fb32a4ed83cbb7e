package io.ontul.engine.expression;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.codehaus.janino.SimpleCompiler;

import io.ontul.spi.OntulException;

/**
 * Compiles a filter and a list of projections over an input row type into a
 * {@link ProjectionKernel}: one Java class per distinct expression list, generated as source
 * and compiled with Janino once, then cached for the life of the process.
 */
public final class KernelCompiler
{
    private static final int CACHE_SIZE = 2000;
    // generated classes by source text; least recently used ones are dropped (and unloaded with their class loader)
    private static final Map<String, Class<?>> CACHE = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(256, 0.75f, true)
    {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Class<?>> eldest)
        {
            return size() > CACHE_SIZE;
        }
    });
    private static final AtomicLong CLASS_IDS = new AtomicLong();

    private KernelCompiler() {}

    /**
     * @param inputTypes types of the input columns, by position
     * @param filter a boolean condition or null
     * @param projections output expressions
     * @param rexBuilder used to expand SEARCH (IN lists and ranges) into comparisons
     */
    public static ProjectionKernel compile(List<RelDataType> inputTypes, RexNode filter, List<RexNode> projections, RexBuilder rexBuilder)
    {
        String source = generate(inputTypes, filter == null ? null : RexUtil.expandSearch(rexBuilder, null, filter),
                projections.stream().map(p -> RexUtil.expandSearch(rexBuilder, null, p)).toList());
        Class<?> kernelClass = CACHE.get(source);
        if (kernelClass == null) {
            kernelClass = compileSource(source);
            CACHE.put(source, kernelClass);
        }
        try {
            return (ProjectionKernel) kernelClass.getDeclaredConstructor().newInstance();
        }
        catch (ReflectiveOperationException e) {
            throw OntulException.internal("cannot instantiate generated kernel", e);
        }
    }

    /** The generated source, for EXPLAIN and debugging. */
    public static String generate(List<RelDataType> inputTypes, RexNode filter, List<RexNode> projections)
    {
        String className = "GeneratedKernel";
        RowCodeGenerator generator = new RowCodeGenerator(inputTypes);
        StringBuilder body = new StringBuilder();
        java.util.Set<Integer> nullsRead = new java.util.HashSet<>();
        java.util.Set<Integer> valuesRead = new java.util.HashSet<>();
        if (filter != null) {
            StringBuilder filterCode = new StringBuilder();
            RowCodeGenerator.Value condition = generator.generate(filter, filterCode);
            generator.emitReads(nullsRead, valuesRead, body);
            body.append(filterCode);
            body.append("if (").append(condition.isNull()).append(" || !").append(condition.value()).append(") continue;\n");
        }
        List<String> outputDeclarations = new ArrayList<>();
        StringBuilder projectionCode = new StringBuilder();
        StringBuilder bulkCopies = new StringBuilder();
        for (int i = 0; i < projections.size(); i++) {
            RexNode projection = projections.get(i);
            RelDataType type = projection.getType();
            String vectorClass = Vectors.vectorClass(type);
            outputDeclarations.add("final " + vectorClass + " out" + i + " = (" + vectorClass + ") outputs[" + i + "];");
            if (projection instanceof RexInputRef ref && Vectors.vectorClass(inputTypes.get(ref.getIndex())).equals(vectorClass)
                    && sameLayout(inputTypes.get(ref.getIndex()), type)) {
                bulkCopies.append(generator.copyColumn(ref.getIndex(), "out" + i));
                continue;
            }
            projectionCode.append("{\n");
            RowCodeGenerator.Value value = generator.generate(projection, projectionCode);
            projectionCode.append("if (").append(value.isNull()).append(") out").append(i).append(".setNull(k); else ")
                    .append(Vectors.writeCode(type, "out" + i, "k", value.value())).append("\n");
            projectionCode.append("}\n");
        }
        generator.emitReads(nullsRead, valuesRead, body);
        body.append(projectionCode);
        body.append("selection[k] = i;\n");
        body.append("k++;\n");

        StringBuilder source = new StringBuilder();
        source.append("public final class ").append(className).append(" implements io.ontul.engine.expression.ProjectionKernel {\n");
        source.append(generator.fieldDeclarations());
        source.append("private boolean initialized;\n");
        source.append("private void init() {\n").append(generator.initCode()).append("}\n");
        source.append("public int process(org.apache.arrow.vector.FieldVector[] inputs, org.apache.arrow.vector.FieldVector[] outputs, int rowCount) {\n");
        source.append("if (!initialized) { init(); initialized = true; }\n");
        for (int column : generator.usedColumns()) {
            String vectorClass = Vectors.vectorClass(inputTypes.get(column));
            source.append("final ").append(vectorClass).append(" in").append(column).append(" = (").append(vectorClass).append(") inputs[").append(column).append("];\n");
        }
        outputDeclarations.forEach(line -> source.append(line).append('\n'));
        source.append("int k = 0;\n");
        source.append("final int[] selection = new int[rowCount];\n");
        source.append("for (int i = 0; i < rowCount; i++) {\n");
        source.append(body);
        source.append("}\n");
        source.append(bulkCopies);
        source.append("return k;\n");
        source.append("}\n");
        source.append("}\n");
        return source.toString();
    }

    private static boolean sameLayout(RelDataType input, RelDataType output)
    {
        return input.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.DECIMAL || input.getScale() == output.getScale();
    }

    private static Class<?> compileSource(String source)
    {
        String className = "GeneratedKernel" + CLASS_IDS.incrementAndGet();
        String renamed = source.replaceFirst("public final class GeneratedKernel ", "public final class " + className + " ");
        SimpleCompiler compiler = new SimpleCompiler();
        compiler.setParentClassLoader(KernelCompiler.class.getClassLoader());
        try {
            compiler.cook(renamed);
            return compiler.getClassLoader().loadClass(className);
        }
        catch (Exception e) {
            org.slf4j.LoggerFactory.getLogger(KernelCompiler.class).error("Generated code does not compile: {}\n{}", e.getMessage(), renamed);
            throw OntulException.internal("generated code does not compile: " + e.getMessage(), e);
        }
    }
}
