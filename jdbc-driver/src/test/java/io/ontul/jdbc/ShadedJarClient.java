package io.ontul.jdbc;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.ServiceLoader;

/**
 * The program {@link ShadedJarIT} runs in a child JVM started without any --add-opens flag. It
 * connects either through DriverManager (the shaded jar on the class path) or, as DBeaver does,
 * through a class loader of its own over the jar whose parent is the platform class loader, then
 * prints the driver class, the first column of each row and "done", or the SQLState and message
 * of the failure. It never calls System.exit, so a thread the driver leaves behind would keep the
 * JVM from ending.
 */
public final class ShadedJarClient
{
    private ShadedJarClient() {}

    /** Arguments: {@code classpath} or the jar's path, the URL with credentials, a query. */
    public static void main(String[] args)
            throws Exception
    {
        String mode = args[0];
        String url = args[1];
        String sql = args[2];
        try {
            if (mode.equals("classpath")) {
                try (Connection connection = DriverManager.getConnection(url)) {
                    System.out.println("driver " + DriverManager.getDriver(url).getClass().getName());
                    query(connection, sql);
                }
            }
            else {
                try (URLClassLoader loader = new URLClassLoader(new URL[] {Path.of(mode).toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
                    Driver driver = ServiceLoader.load(Driver.class, loader).findFirst().orElseThrow();
                    System.out.println("driver " + driver.getClass().getName() + (driver.getClass().getClassLoader() == loader ? " from the jar's own loader" : ""));
                    try (Connection connection = driver.connect(url, new Properties())) {
                        query(connection, sql);
                    }
                }
            }
        }
        catch (SQLException e) {
            System.out.println("error " + e.getSQLState() + " " + e.getMessage());
        }
        System.out.println("done");
    }

    private static void query(Connection connection, String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                System.out.println("row " + result.getString(1));
            }
        }
    }
}
