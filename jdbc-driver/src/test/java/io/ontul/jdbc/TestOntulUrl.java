package io.ontul.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;

class TestOntulUrl
{
    @Test
    void defaultsToPort47470WithoutTls()
            throws SQLException
    {
        OntulUrl url = OntulUrl.parse("jdbc:ontul://db.example.com?user=admin&password=secret", new Properties());
        assertThat(url.host()).isEqualTo("db.example.com");
        assertThat(url.port()).isEqualTo(47470);
        assertThat(url.tls()).isFalse();
        assertThat(url.catalog()).isEmpty();
        assertThat(url.schema()).isEmpty();
        assertThat(url.arrowUrl()).isEqualTo("jdbc:arrow-flight-sql://db.example.com:47470/");
        assertThat(url.arrowProperties())
                .containsEntry("user", "admin")
                .containsEntry("password", "secret")
                .containsEntry("useEncryption", "false")
                .hasSize(3);
        assertThat(url.displayUrl()).isEqualTo("jdbc:ontul://db.example.com:47470");
    }

    @Test
    void readsPortCatalogSchemaAndTls()
            throws SQLException
    {
        OntulUrl url = OntulUrl.parse("jdbc:ontul://127.0.0.1:1234/tpch/tiny?tls=TRUE&disableCertificateVerification=true&trustStore=%2Ftmp%2Fstore.jks",
                properties("user", "analyst", "password", "p&ss=word"));
        assertThat(url.port()).isEqualTo(1234);
        assertThat(url.catalog()).contains("tpch");
        assertThat(url.schema()).contains("tiny");
        assertThat(url.tls()).isTrue();
        assertThat(url.user()).contains("analyst");
        assertThat(url.arrowUrl()).isEqualTo("jdbc:arrow-flight-sql://127.0.0.1:1234/");
        assertThat(url.arrowProperties())
                .containsEntry("useEncryption", "true")
                .containsEntry("disableCertificateVerification", "true")
                .containsEntry("trustStore", "/tmp/store.jks")
                .containsEntry("password", "p&ss=word")
                .doesNotContainKeys("tls", "catalog", "schema");
        assertThat(url.displayUrl()).isEqualTo("jdbc:ontul://127.0.0.1:1234/tpch/tiny?tls=true");
    }

    @Test
    void propertiesWinOverUrlParameters()
            throws SQLException
    {
        OntulUrl url = OntulUrl.parse("jdbc:ontul://host/memory/?user=url-user&password=url-password&tls=false", properties("password", "given", "tls", "true", "user", ""));
        assertThat(url.arrowProperties()).containsEntry("user", "url-user").containsEntry("password", "given").containsEntry("useEncryption", "true");
        assertThat(url.catalog()).contains("memory");
        assertThat(url.schema()).isEmpty();
    }

    @Test
    void catalogAndSchemaMayBeParameters()
            throws SQLException
    {
        OntulUrl url = OntulUrl.parse("jdbc:ontul://host/?catalog=memory&schema=default", properties("user", "admin"));
        assertThat(url.catalog()).contains("memory");
        assertThat(url.schema()).contains("default");
        assertThat(url.arrowProperties()).doesNotContainKeys("catalog", "schema");
    }

    @Test
    void percentDecodesParametersAndKeepsPlusSigns()
            throws SQLException
    {
        OntulUrl url = OntulUrl.parse("jdbc:ontul://host/my%20catalog?user=admin&password=a+b%26c%3Dd", new Properties());
        assertThat(url.arrowProperties()).containsEntry("password", "a+b&c=d");
        assertThat(url.catalog()).contains("my catalog");
    }

    @Test
    void readsIpv6Hosts()
            throws SQLException
    {
        OntulUrl url = OntulUrl.parse("jdbc:ontul://[::1]:5000", properties("user", "admin"));
        assertThat(url.host()).isEqualTo("[::1]");
        assertThat(url.port()).isEqualTo(5000);
    }

    @Test
    void acceptsOnlyOntulUrls()
    {
        assertThat(OntulUrl.accepts("jdbc:ontul://localhost")).isTrue();
        assertThat(OntulUrl.accepts("JDBC:ONTUL://localhost")).isTrue();
        assertThat(OntulUrl.accepts("jdbc:arrow-flight-sql://localhost:47470")).isFalse();
        assertThat(OntulUrl.accepts("jdbc:postgresql://localhost/db")).isFalse();
        assertThat(OntulUrl.accepts(null)).isFalse();
    }

    @Test
    void rejectsMalformedUrlsWithTheReason()
    {
        assertInvalid("jdbc:ontul:localhost", "it must start with jdbc:ontul://");
        assertInvalid("jdbc:ontul://:47470", "the host is missing");
        assertInvalid("jdbc:ontul://host:http", "the port must be a number from 1 to 65535, not 'http'");
        assertInvalid("jdbc:ontul://host:0", "the port must be a number from 1 to 65535, not '0'");
        assertInvalid("jdbc:ontul://host/a/b/c", "the path must be /catalog or /catalog/schema");
        assertInvalid("jdbc:ontul://host//b", "the path must be /catalog or /catalog/schema");
        assertInvalid("jdbc:ontul://host?tls=yes", "tls must be true or false, not 'yes'");
        assertInvalid("jdbc:ontul://host?schema=tiny", "a schema needs a catalog: use /catalog/schema");
    }

    @Test
    void requiresAUser()
    {
        assertThatThrownBy(() -> OntulUrl.parse("jdbc:ontul://host", properties("user", " ", "password", "secret")))
                .isInstanceOf(SQLException.class)
                .hasMessageStartingWith("No user given for jdbc:ontul://host: ");
        assertThatThrownBy(() -> OntulUrl.parse("jdbc:ontul://host?password=secret", new Properties()))
                .isInstanceOf(SQLException.class)
                .hasMessage("No user given for jdbc:ontul://host?password=***: add user=NAME and password=SECRET as connection properties or URL parameters");
    }

    @Test
    void messagesHidePasswords()
    {
        assertThat(OntulUrl.redact("jdbc:ontul://h?user=a&password=s3cret&tls=true")).isEqualTo("jdbc:ontul://h?user=a&password=***&tls=true");
        assertThat(Optional.ofNullable(OntulUrl.redact(null))).isEmpty();
    }

    private static void assertInvalid(String url, String reason)
    {
        assertThatThrownBy(() -> OntulUrl.parse(url, properties("user", "admin")))
                .isInstanceOf(SQLException.class)
                .hasMessageStartingWith("Invalid Ontul JDBC URL " + url + ": " + reason + " (jdbc:ontul://host[:port]")
                .extracting(exception -> ((SQLException) exception).getSQLState()).isEqualTo("08001");
    }

    private static Properties properties(String... keysAndValues)
    {
        Properties properties = new Properties();
        for (int index = 0; index < keysAndValues.length; index += 2) {
            properties.setProperty(keysAndValues[index], keysAndValues[index + 1]);
        }
        return properties;
    }

    @Test
    void userInfoBeforeTheHostIsRejectedWithoutEchoingIt()
    {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OntulUrl.parse("jdbc:ontul://alice:s3cret@db:47470", new java.util.Properties()))
                .isInstanceOf(java.sql.SQLException.class)
                .hasMessageContaining("not before the host")
                .hasMessageNotContaining("s3cret");
    }
}
