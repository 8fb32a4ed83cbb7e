package io.ontul.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static com.tngtech.archunit.library.freeze.FreezingArchRule.freeze;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

import io.ontul.architecture.fixture.ServerReachingIntoTheEngine;
import io.ontul.architecture.fixture.cycle.left.Left;
import io.ontul.architecture.fixture.cycle.right.Right;

/**
 * The layers of Ontul, checked over the main classes of every module (README, "Modules"):
 * <pre>
 *   flight-server, bench, jdbc-driver      fronts: the engine only through engine.api
 *   engine (api, execution, plan, ...)     knows the SPI and the exchange, no catalog or front;
 *                                          its packages form no cycle; operators see only their
 *                                          OperatorContext, never execution, planning or queries
 *   catalogs (builtin, iceberg, jdbc, kafka)  the SPI only
 *   exchange                               the SPI only
 *   spi                                    nothing of Ontul
 *   sdk                                    a client: nothing of Ontul (the server uses its job translation)
 * </pre>
 * Rules that the code does not keep everywhere yet are frozen: the violations recorded in
 * {@code src/test/resources/frozen} are tolerated, a new one fails the build, and a fixed one
 * leaves the record (commit the smaller file).
 */
class TestArchitecture
{
    private static final String[] FRONTS = {"io.ontul.server..", "io.ontul.bench..", "io.ontul.jdbc.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses()
    {
        classes = new ClassFileImporter()
                .withImportOption(new ImportOption.DoNotIncludeTests())
                // test jars on the class path (the engine's test utilities the benchmarks use)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.ontul");
        // a rule over nothing passes whatever it says
        assertThat(classes.containPackage("io.ontul.engine.operator")).isTrue();
        assertThat(classes.containPackage("io.ontul.server.flight")).isTrue();
        assertThat(classes.containPackage("io.ontul.catalog.iceberg")).isTrue();
        assertThat(classes.containPackage("io.ontul.bench")).isTrue();
        assertThat(classes.containPackage("io.ontul.sdk.stream")).isTrue();
    }

    /** The Java SDK is a client: it talks to servers over Flight SQL and knows none of their code. */
    @Test
    void theSdkKnowsNothingOfTheServer()
    {
        noClasses().that().resideInAPackage("io.ontul.sdk..")
                .should().dependOnClassesThat().resideInAnyPackage("io.ontul.spi..", "io.ontul.engine..", "io.ontul.exchange..", "io.ontul.catalog..", "io.ontul.server..",
                        "io.ontul.bench..", "io.ontul.jdbc..")
                .check(classes);
    }

    @Test
    void spiKnowsNothingOfOntul()
    {
        noClasses().that().resideInAPackage("io.ontul.spi..")
                .should().dependOnClassesThat().resideInAnyPackage("io.ontul.engine..", "io.ontul.exchange..", "io.ontul.catalog..", "io.ontul.server..", "io.ontul.bench..", "io.ontul.jdbc..")
                .check(classes);
    }

    @Test
    void exchangeKnowsOnlyTheSpi()
    {
        noClasses().that().resideInAPackage("io.ontul.exchange..")
                .should().dependOnClassesThat().resideInAnyPackage("io.ontul.engine..", "io.ontul.catalog..", "io.ontul.server..", "io.ontul.bench..", "io.ontul.jdbc..")
                .check(classes);
    }

    @Test
    void catalogsKnowOnlyTheSpi()
    {
        noClasses().that().resideInAPackage("io.ontul.catalog..")
                .should().dependOnClassesThat().resideInAnyPackage("io.ontul.engine..", "io.ontul.exchange..", "io.ontul.server..", "io.ontul.bench..", "io.ontul.jdbc..")
                .check(classes);
    }

    @Test
    void engineKnowsNoCatalogAndNoFront()
    {
        noClasses().that().resideInAPackage("io.ontul.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("io.ontul.catalog..", "io.ontul.server..", "io.ontul.bench..", "io.ontul.jdbc..")
                .check(classes);
    }

    @Test
    void frontsUseTheEngineThroughItsApi()
    {
        onlyThroughEngineApi(FRONTS).check(classes);
    }

    @Test
    void operatorsKnowNeitherExecutionNorPlanning()
    {
        noClasses().that().resideInAPackage("io.ontul.engine.operator..")
                .should().dependOnClassesThat().resideInAnyPackage("io.ontul.engine.execution..", "io.ontul.engine.plan..", "io.ontul.engine.query..",
                        "io.ontul.engine.statement..", "io.ontul.engine.stream..", "io.ontul.engine.api..")
                .as("operators see their context, never the statement that runs them or the planner that made them")
                .check(classes);
    }

    /**
     * The engine's packages ({@code io.ontul.engine.X..}, one slice each) depend on each other
     * without a cycle. {@code engine.api} is the front door that wires them all; what the packages
     * inside still use of it is the frozen rule below, and left out here.
     */
    @Test
    void enginePackagesFormNoCycle()
    {
        enginePackagesFreeOfCycles("io.ontul.engine.(*)..").check(classes);
    }

    @Test
    void theEngineInsideDoesNotUseItsApi()
    {
        freeze(noClasses().that().resideInAPackage("io.ontul.engine..").and().resideOutsideOfPackage("io.ontul.engine.api..")
                .should().dependOnClassesThat().resideInAPackage("io.ontul.engine.api..")
                .as("the engine's packages do not use engine.api, the front door that wires them"))
                .check(classes);
    }

    /** The cycle rule can fail: two packages that use each other break it. */
    @Test
    void aPackageCycleFailsTheRule()
    {
        JavaClasses cycle = new ClassFileImporter().importClasses(Left.class, Right.class);
        assertThatThrownBy(() -> enginePackagesFreeOfCycles("io.ontul.architecture.fixture.cycle.(*)..").check(cycle))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected: Slice left")
                .hasMessageContaining("Dependencies of Slice right");
    }

    /** The rules can fail: a class that calls an engine internal from a front breaks the fronts' rule. */
    @Test
    void aFrontReachingIntoTheEngineFailsTheRule()
    {
        JavaClasses offender = new ClassFileImporter().importClasses(ServerReachingIntoTheEngine.class);
        assertThatThrownBy(() -> onlyThroughEngineApi("io.ontul.architecture.fixture..").check(offender))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("io.ontul.engine.execution.StatementKinds");
    }

    private static ArchRule enginePackagesFreeOfCycles(String slicePattern)
    {
        return slices().matching(slicePattern).should().beFreeOfCycles()
                .ignoreDependency(com.tngtech.archunit.base.DescribedPredicate.alwaysTrue(), resideInAPackage("io.ontul.engine.api.."))
                .as("engine packages form no cycle (engine.api aside)");
    }

    /** The engine's test utilities (engine.testing) count as its API for the benchmarks that use them. */
    private static ArchRule onlyThroughEngineApi(String... packages)
    {
        return noClasses().that().resideInAnyPackage(packages)
                .should().dependOnClassesThat(resideInAPackage("io.ontul.engine..").and(not(resideInAnyPackage("io.ontul.engine.api..", "io.ontul.engine.testing.."))))
                .as("fronts (flight-server, bench, jdbc-driver) use the engine through io.ontul.engine.api only");
    }
}
