package io.ontul.catalog.jdbc.dialect;

/**
 * Chooses the dialect from the JDBC URL's subprotocol ({@code jdbc:SUBPROTOCOL:...}).
 */
public final class JdbcDialects
{
    private JdbcDialects() {}

    public static JdbcDialect forSubprotocol(String subprotocol)
    {
        return switch (subprotocol) {
            case "postgresql" -> new PostgreSqlDialect();
            case "mysql" -> new MySqlDialect(false);
            case "mariadb" -> new MySqlDialect(true);
            default -> new GenericDialect(subprotocol);
        };
    }
}
