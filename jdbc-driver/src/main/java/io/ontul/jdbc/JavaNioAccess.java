package io.ontul.jdbc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.sql.SQLException;

/**
 * Arrow's memory code (bundled in this driver) reads the private {@code address} field of
 * {@code java.nio.Buffer}, so on Java 17 and later {@code java.nio} must be open to the module
 * that holds it: normally {@code --add-opens=java.base/java.nio=ALL-UNNAMED} on the command line.
 * A JDBC driver cannot ask for that flag itself ({@code Add-Opens} in a manifest counts only for
 * {@code java -jar}), and without it Arrow fails in a static initializer, after which its
 * connection threads keep the JVM alive. So before Arrow's classes load, the driver opens
 * {@code java.nio} to its own (unnamed) module through the JDK's internal lookup, and if that is
 * not possible it fails with a message naming the flag.
 * <p>
 * Setting the system property {@value #OPEN_PROPERTY} to {@code false} turns the opening off.
 */
final class JavaNioAccess
{
    static final String OPEN_PROPERTY = "ontul.jdbc.open-java-nio";
    static final String FLAG = "--add-opens=java.base/java.nio=ALL-UNNAMED";

    private static final String PACKAGE = "java.nio";

    private JavaNioAccess() {}

    static synchronized void requireOpen()
            throws SQLException
    {
        Module javaBase = Object.class.getModule();
        Module driver = JavaNioAccess.class.getModule();
        if (javaBase.isOpen(PACKAGE, driver)) {
            return;
        }
        Throwable failure = null;
        if (!"false".equalsIgnoreCase(System.getProperty(OPEN_PROPERTY))) {
            try {
                open(javaBase, driver);
            }
            catch (Throwable e) {
                failure = e;
            }
        }
        if (!javaBase.isOpen(PACKAGE, driver)) {
            SQLException exception = new SQLException("The Ontul JDBC driver needs the JVM option " + FLAG
                    + " (Arrow reads java.nio buffers directly). Add it to the JVM that loads the driver, "
                    + "for DBeaver as a line in dbeaver.ini after -vmargs.", "08001");
            if (failure != null) {
                exception.initCause(failure);
            }
            throw exception;
        }
    }

    private static void open(Module javaBase, Module driver)
            throws Throwable
    {
        // sun.misc.Unsafe (module jdk.unsupported, open to everyone) reads the JDK's trusted
        // lookup, which may call Module.implAddOpens: what --add-opens does at start-up.
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Object unsafe = theUnsafe.get(null);
        Field trustedLookup = MethodHandles.Lookup.class.getDeclaredField("IMPL_LOOKUP");
        Object base = unsafeClass.getMethod("staticFieldBase", Field.class).invoke(unsafe, trustedLookup);
        long offset = (long) unsafeClass.getMethod("staticFieldOffset", Field.class).invoke(unsafe, trustedLookup);
        MethodHandles.Lookup lookup = (MethodHandles.Lookup) unsafeClass.getMethod("getObject", Object.class, long.class).invoke(unsafe, base, offset);
        MethodHandle addOpens = lookup.findVirtual(Module.class, "implAddOpens", MethodType.methodType(void.class, String.class, Module.class));
        addOpens.invoke(javaBase, PACKAGE, driver);
    }
}
