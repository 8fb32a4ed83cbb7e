package io.ontul.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar target/ontul-jdbc-VERSION.jar as a tool uses it: alone in a class loader whose
 * parent is the platform class loader (how DBeaver loads drivers), and in child JVMs started with
 * no --add-opens flag. Runs after {@code package} (maven-failsafe-plugin).
 */
class ShadedJarIT
{
    private static final String QUERY = "SELECT n_name FROM tpch.tiny.nation WHERE n_nationkey < 3 ORDER BY n_nationkey";
    private static final List<String> ROWS = List.of("row ALGERIA", "row ARGENTINA", "row BRAZIL");
    private static final long CHILD_TIMEOUT_SECONDS = 60;

    private static TestingServer server;
    private static Path jar;

    @TempDir
    static Path clientDirectory;

    @BeforeAll
    static void start()
            throws Exception
    {
        jar = Path.of(System.getProperty("ontul.jdbc.jar", "target/ontul-jdbc.jar"));
        assertThat(jar).as("the shaded jar (run mvn package first)").isRegularFile();
        server = new TestingServer();
        // the child JVMs get this one class, not the test class path
        String classFile = ShadedJarClient.class.getName().replace('.', '/') + ".class";
        Path source = Path.of(ShadedJarClient.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve(classFile);
        Path target = clientDirectory.resolve(classFile);
        Files.createDirectories(target.getParent());
        Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
    }

    @AfterAll
    static void stop()
    {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void jarHoldsTheDriverAndArrowsRelocatedClassesOnly()
            throws IOException
    {
        try (JarFile file = new JarFile(jar.toFile())) {
            List<String> foreign = new ArrayList<>();
            for (JarEntry entry : Collections.list(file.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.startsWith("io/ontul/jdbc/") && !name.startsWith("org/apache/arrow/driver/jdbc/")) {
                    foreign.add(name);
                }
            }
            // Netty, gRPC, Arrow memory and vectors all live under org/apache/arrow/driver/jdbc/shaded/
            assertThat(foreign).isEmpty();
            String services = new String(file.getInputStream(file.getEntry("META-INF/services/java.sql.Driver")).readAllBytes(), UTF_8);
            assertThat(services.strip()).isEqualTo("io.ontul.jdbc.OntulDriver");
        }
    }

    @Test
    void worksAloneInAFreshClassLoader()
            throws Exception
    {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Driver driver = ServiceLoader.load(Driver.class, loader).findFirst().orElseThrow();
            assertThat(driver.getClass().getName()).isEqualTo("io.ontul.jdbc.OntulDriver");
            assertThat(driver.getClass().getClassLoader()).isSameAs(loader);
            assertThat(Class.forName("io.ontul.jdbc.OntulDriver", true, loader)).isSameAs(driver.getClass());
            Properties properties = new Properties();
            properties.setProperty("user", "admin");
            properties.setProperty("password", TestingServer.PASSWORD);
            List<String> rows = new ArrayList<>();
            try (Connection connection = driver.connect(server.url(""), properties);
                    Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery(QUERY)) {
                assertThat(connection.getClass().getClassLoader()).isNotSameAs(getClass().getClassLoader());
                while (result.next()) {
                    rows.add("row " + result.getString(1));
                }
            }
            assertThat(rows).isEqualTo(ROWS);
        }
    }

    @Test
    void runsQueriesInAJvmWithoutAddOpens()
            throws Exception
    {
        List<String> output = runClient(List.of(), jar + java.io.File.pathSeparator + clientDirectory, "classpath");
        assertThat(output).containsSubsequence(List.of("driver io.ontul.jdbc.OntulDriver", ROWS.get(0), ROWS.get(1), ROWS.get(2), "done"));
    }

    @Test
    void runsQueriesFromItsOwnClassLoaderInAJvmWithoutAddOpens()
            throws Exception
    {
        List<String> output = runClient(List.of(), clientDirectory.toString(), jar.toString());
        assertThat(output).containsSubsequence(List.of("driver io.ontul.jdbc.OntulDriver from the jar's own loader", ROWS.get(0), ROWS.get(1), ROWS.get(2), "done"));
    }

    @Test
    void namesTheFlagWhenJavaNioCannotBeOpened()
            throws Exception
    {
        List<String> output = runClient(List.of("-D" + JavaNioAccess.OPEN_PROPERTY + "=false"), jar + java.io.File.pathSeparator + clientDirectory, "classpath");
        assertThat(output).containsExactly(
                "error 08001 The Ontul JDBC driver needs the JVM option --add-opens=java.base/java.nio=ALL-UNNAMED (Arrow reads java.nio buffers directly). "
                        + "Add it to the JVM that loads the driver, for DBeaver as a line in dbeaver.ini after -vmargs.",
                "done");
    }

    /** Runs ShadedJarClient in a child JVM of this JVM's java binary and returns its standard output; fails if it does not end by itself. */
    private static List<String> runClient(List<String> jvmOptions, String classPath, String mode)
            throws Exception
    {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, ShadedJarClient.class.getName(), mode, server.urlWithCredentials(), QUERY));
        Path stdout = Files.createTempFile(clientDirectory, "client", ".out");
        Path stderr = Files.createTempFile(clientDirectory, "client", ".err");
        Process process = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        if (!process.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("The client JVM did not end within " + CHILD_TIMEOUT_SECONDS + " s; output: " + Files.readString(stdout) + Files.readString(stderr));
        }
        assertThat(process.exitValue()).as("exit value; standard error: %s", Files.readString(stderr)).isZero();
        return Files.readAllLines(stdout);
    }
}
