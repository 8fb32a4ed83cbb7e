package io.ontul.engine.expression;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
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
     * Generated source and the values its constructor receives (IN-list sets, long strings);
     * whether the code computes on DECIMAL values at all.
     */
    public record Generated(String source, Object[] constants, boolean decimalsUsed) {}

    /** Projections computed in the row loop itself; more (or larger ones) go into methods of their own. */
    private static final int INLINE_PROJECTIONS = 32;
    /** Bare column copies after the row loop per method. */
    private static final int COPIES_PER_METHOD = 256;

    /**
     * @param inputTypes types of the input columns, by position
     * @param filter a boolean condition or null
     * @param projections output expressions
     * @param rexBuilder used to expand SEARCH over ranges and short IN lists into comparisons
     */
    public static ProjectionKernel compile(List<RelDataType> inputTypes, RexNode filter, List<RexNode> projections, RexBuilder rexBuilder)
    {
        java.util.function.Supplier<ProjectionKernel> wideKernel = () -> instantiate(generate(inputTypes, filter, projections, rexBuilder, true));
        Generated generated;
        try {
            generated = generate(inputTypes, filter, projections, rexBuilder, false);
        }
        catch (WideDecimals.Required e) {
            // a DECIMAL literal of more than 18 digits
            return wideKernel.get();
        }
        ProjectionKernel kernel = instantiate(generated);
        return generated.decimalsUsed() ? new WideningKernel(kernel, wideKernel) : kernel;
    }

    private static ProjectionKernel instantiate(Generated generated)
    {
        // the class depends on the source only: kernels that differ in their IN-list values share it
        Class<?> kernelClass = CACHE.get(generated.source());
        if (kernelClass == null) {
            kernelClass = compileSource(generated.source());
            CACHE.put(generated.source(), kernelClass);
        }
        try {
            return (ProjectionKernel) kernelClass.getDeclaredConstructor(Object[].class).newInstance((Object) generated.constants());
        }
        catch (ReflectiveOperationException e) {
            throw OntulException.internal("cannot instantiate generated kernel", e);
        }
    }

    /**
     * The generated source, for EXPLAIN and debugging. Every method stays well below the JVM's
     * limits whatever the size of the expressions: large expressions, long AND/OR/CASE lists, many
     * projections and many copied columns are split into methods of their own.
     */
    public static Generated generate(List<RelDataType> inputTypes, RexNode filter, List<RexNode> projections, RexBuilder rexBuilder)
    {
        return generate(inputTypes, filter, projections, rexBuilder, false);
    }

    /**
     * @param wideDecimals hold DECIMAL values as BigDecimal (any precision up to 38) rather than
     * unscaled longs; the long version throws {@link WideDecimals#REQUIRED} where one does not fit
     */
    public static Generated generate(List<RelDataType> inputTypes, RexNode filter, List<RexNode> projections, RexBuilder rexBuilder, boolean wideDecimals)
    {
        String className = "GeneratedKernel";
        RowCodeGenerator generator = new RowCodeGenerator(inputTypes, rexBuilder, wideDecimals);
        StringBuilder body = new StringBuilder();
        java.util.Set<Integer> nullsRead = new java.util.HashSet<>();
        java.util.Set<Integer> valuesRead = new java.util.HashSet<>();
        if (filter != null) {
            StringBuilder filterCode = new StringBuilder();
            RowCodeGenerator.Value condition = generator.generate(ConjunctOrder.cheapFirst(filter, rexBuilder), filterCode);
            generator.emitReads(nullsRead, valuesRead, body);
            body.append(filterCode);
            body.append("if (").append(condition.isNull()).append(" || !").append(condition.value()).append(") continue;\n");
        }
        List<Integer> computed = new ArrayList<>();
        List<String> bulkCopies = new ArrayList<>();
        int[] bare = bareInputs(inputTypes, projections);
        for (int i = 0; i < projections.size(); i++) {
            if (bare[i] >= 0) {
                // a bare column: not computed per row; the selected rows are copied in bulk after the loop, without decoding
                // (unless the caller takes them itself: see ProjectionKernel)
                bulkCopies.add("if (outputs[" + i + "] != null) io.ontul.engine.operator.VectorGather.gather(inputs[" + bare[i] + "], selection, k, outputs[" + i + "]);\n");
                continue;
            }
            computed.add(i);
        }
        StringBuilder methods = new StringBuilder();
        StringBuilder outputDeclarations = new StringBuilder();
        int totalSize = computed.stream().mapToInt(i -> RowCodeGenerator.size(projections.get(i))).sum();
        if (computed.size() <= INLINE_PROJECTIONS && totalSize <= RowCodeGenerator.METHOD_BUDGET) {
            StringBuilder projectionCode = new StringBuilder();
            for (int i : computed) {
                outputDeclarations.append(outputDeclaration(projections.get(i), i));
                project(generator, projections.get(i), i, projectionCode);
            }
            generator.emitReads(nullsRead, valuesRead, body);
            body.append(projectionCode);
        }
        else {
            // chunks of projections, each a method with its own reads
            int chunk = 0;
            for (int from = 0; from < computed.size(); chunk++) {
                RowCodeGenerator scope = generator.newScope();
                StringBuilder projectionCode = new StringBuilder();
                StringBuilder declarations = new StringBuilder();
                int size = 0;
                int to = from;
                while (to < computed.size() && (to == from || (to - from < INLINE_PROJECTIONS && size + RowCodeGenerator.size(projections.get(computed.get(to))) <= RowCodeGenerator.METHOD_BUDGET))) {
                    size += RowCodeGenerator.size(projections.get(computed.get(to)));
                    declarations.append(outputDeclaration(projections.get(computed.get(to)), computed.get(to)));
                    project(scope, projections.get(computed.get(to)), computed.get(to), projectionCode);
                    to++;
                }
                StringBuilder reads = new StringBuilder();
                scope.emitReads(new java.util.HashSet<>(), new java.util.HashSet<>(), reads);
                methods.append("private void project").append(chunk)
                        .append("(final org.apache.arrow.vector.FieldVector[] inputs, final org.apache.arrow.vector.FieldVector[] outputs, final int i, final int k) {\n")
                        .append(scope.columnDeclarations()).append(declarations).append(reads).append(projectionCode).append("}\n");
                body.append("project").append(chunk).append("(inputs, outputs, i, k);\n");
                from = to;
            }
        }
        body.append("selection[k] = i;\n");
        body.append("k++;\n");

        StringBuilder copies = new StringBuilder();
        if (bulkCopies.size() <= COPIES_PER_METHOD) {
            bulkCopies.forEach(copies::append);
        }
        else {
            for (int from = 0, chunk = 0; from < bulkCopies.size(); from += COPIES_PER_METHOD, chunk++) {
                copies.append("copy").append(chunk).append("(inputs, outputs, selection, k);\n");
                methods.append("private static void copy").append(chunk)
                        .append("(final org.apache.arrow.vector.FieldVector[] inputs, final org.apache.arrow.vector.FieldVector[] outputs, final int[] selection, final int k) {\n");
                bulkCopies.subList(from, Math.min(bulkCopies.size(), from + COPIES_PER_METHOD)).forEach(methods::append);
                methods.append("}\n");
            }
        }

        StringBuilder source = new StringBuilder();
        source.append("public final class ").append(className).append(" implements io.ontul.engine.expression.ProjectionKernel {\n");
        source.append("private final Object[] constants;\n");
        source.append("public ").append(className).append("(Object[] constants) { this.constants = constants; }\n");
        source.append(generator.classMembers());
        source.append(methods);
        source.append("private int[] rows = new int[0];\n");
        source.append("public int[] selection() { return rows; }\n");
        source.append("private boolean initialized;\n");
        source.append("public int process(final org.apache.arrow.vector.FieldVector[] inputs, final org.apache.arrow.vector.FieldVector[] outputs, int rowCount) {\n");
        source.append("if (!initialized) { init(); initialized = true; }\n");
        source.append(generator.columnDeclarations());
        source.append(outputDeclarations);
        source.append("int k = 0;\n");
        source.append("if (rows.length < rowCount) rows = new int[rowCount];\n");
        source.append("final int[] selection = rows;\n");
        source.append("for (int i = 0; i < rowCount; i++) {\n");
        source.append(body);
        source.append("}\n");
        source.append(copies);
        source.append("return k;\n");
        source.append("}\n");
        source.append("}\n");
        return new Generated(source.toString(), generator.constants(), generator.decimalsUsed());
    }

    /**
     * For each projection, the input column it is when it is one, unchanged (same vector class and
     * layout): such outputs are copied or moved, never computed row by row; -1 for the others.
     */
    public static int[] bareInputs(List<RelDataType> inputTypes, List<RexNode> projections)
    {
        int[] bare = new int[projections.size()];
        for (int i = 0; i < bare.length; i++) {
            RexNode projection = projections.get(i);
            RelDataType type = projection.getType();
            bare[i] = projection instanceof RexInputRef ref && Vectors.vectorClass(inputTypes.get(ref.getIndex())).equals(Vectors.vectorClass(type))
                    && sameLayout(inputTypes.get(ref.getIndex()), type) ? ref.getIndex() : -1;
        }
        return bare;
    }

    /** Computes projection number {@code index} for input row {@code i} and writes it at output row {@code k} of {@code out<index>}. */
    private static void project(RowCodeGenerator generator, RexNode projection, int index, StringBuilder code)
    {
        RelDataType type = projection.getType();
        code.append("{\n");
        RowCodeGenerator.Value value = generator.generate(projection, code);
        code.append("if (").append(value.isNull()).append(") out").append(index).append(".setNull(k); else ")
                .append(Vectors.writeCode(type, "out" + index, "k", value.value(), generator.wideDecimals())).append("\n");
        code.append("}\n");
    }

    /** {@code final XVector outN = (XVector) outputs[N];} */
    private static String outputDeclaration(RexNode projection, int index)
    {
        String vectorClass = Vectors.vectorClass(projection.getType());
        return "final " + vectorClass + " out" + index + " = (" + vectorClass + ") outputs[" + index + "];\n";
    }

    /**
     * Runs a kernel that holds DECIMALs as longs; when a batch needs wider values it computes
     * that batch again, and every later one, with the kernel compiled to hold them as
     * BigDecimals. The outputs are reset first: nothing the first attempt wrote is kept.
     */
    private static final class WideningKernel
            implements ProjectionKernel
    {
        private final java.util.function.Supplier<ProjectionKernel> wideKernel;
        private ProjectionKernel kernel;
        private boolean wide;

        WideningKernel(ProjectionKernel longKernel, java.util.function.Supplier<ProjectionKernel> wideKernel)
        {
            this.kernel = longKernel;
            this.wideKernel = wideKernel;
        }

        @Override
        public int process(org.apache.arrow.vector.FieldVector[] inputs, org.apache.arrow.vector.FieldVector[] outputs, int rowCount)
        {
            if (wide) {
                return kernel.process(inputs, outputs, rowCount);
            }
            try {
                return kernel.process(inputs, outputs, rowCount);
            }
            catch (WideDecimals.Required e) {
                for (org.apache.arrow.vector.FieldVector output : outputs) {
                    if (output != null) {
                        output.reset();
                    }
                }
                kernel = wideKernel.get();
                wide = true;
                return kernel.process(inputs, outputs, rowCount);
            }
        }

        @Override
        public int[] selection()
        {
            return kernel.selection();
        }
    }

    private static boolean sameLayout(RelDataType input, RelDataType output)
    {
        return input.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.DECIMAL || input.getScale() == output.getScale();
    }

    private static Class<?> compileSource(String source)
    {
        String className = "GeneratedKernel" + CLASS_IDS.incrementAndGet();
        String renamed = source.replaceFirst("public final class GeneratedKernel ", "public final class " + className + " ")
                .replaceFirst("public GeneratedKernel\\(Object", "public " + className + "(Object");
        SimpleCompiler compiler = new SimpleCompiler();
        compiler.setParentClassLoader(KernelCompiler.class.getClassLoader());
        try {
            compiler.cook(renamed);
            return compiler.getClassLoader().loadClass(className);
        }
        catch (Exception e) {
            // the source can be large: only at debug level, and once (the failure itself is logged where it is reported)
            org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(KernelCompiler.class);
            if (log.isDebugEnabled()) {
                log.debug("Generated code that does not compile:\n{}", renamed);
            }
            String message = String.valueOf(e.getMessage());
            throw OntulException.internal("generated code does not compile (" + renamed.length() + " characters of source): "
                    + (message.length() > 300 ? message.substring(0, 300) + "..." : message), e);
        }
    }
}
