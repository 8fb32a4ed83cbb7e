package io.ontul.engine.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.api.UserManagement;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** The user statements in the engine, against an in-memory {@link UserManagement}. */
class TestUserStatements
{
    private final InMemoryUsers users = new InMemoryUsers();
    private Engine engine;
    private Session admin;
    private Session bob;

    @BeforeEach
    void setUp()
    {
        users.createUser("admin", "admin-secret");
        engine = Engine.create(EngineConfig.embeddedDefaults(), users);
        admin = engine.createSession("admin");
        bob = engine.createSession("bob");
    }

    @AfterEach
    void tearDown()
    {
        engine.close();
    }

    @Test
    void adminCreatesAltersListsAndDropsUsers()
    {
        assertThat(update(admin, "CREATE USER Bob PASSWORD 'bob-secret'")).isZero();
        assertThat(users.passwords).containsEntry("bob", "bob-secret");
        update(admin, "CREATE USER \"Carol\" PASSWORD 'carol-secret'");
        assertThat(rows(admin, "SHOW USERS")).containsExactly("Carol", "admin", "bob");
        assertThat(rows(admin, "SHOW USERS LIKE 'b%'")).containsExactly("bob");

        update(admin, "ALTER USER bob PASSWORD 'bob-secret-2'");
        assertThat(users.passwords).containsEntry("bob", "bob-secret-2");

        update(admin, "DROP USER bob");
        assertThat(users.passwords).doesNotContainKey("bob");
        update(admin, "DROP USER IF EXISTS bob");
        assertThat(rows(admin, "SHOW USERS")).containsExactly("Carol", "admin");
    }

    @Test
    void existingAndMissingUsers()
    {
        update(admin, "CREATE USER bob PASSWORD 'bob-secret'");
        assertFails(admin, "CREATE USER bob PASSWORD 'other-secret'", ErrorCode.ALREADY_EXISTS, "line 1:13: User 'bob' already exists");
        assertThat(update(admin, "CREATE USER IF NOT EXISTS bob PASSWORD 'other-secret'")).isZero();
        assertThat(users.passwords).containsEntry("bob", "bob-secret");

        assertFails(admin, "DROP USER carol", ErrorCode.NOT_FOUND, "line 1:11: User 'carol' does not exist");
        assertFails(admin, "ALTER USER carol PASSWORD 'carol-secret'", ErrorCode.NOT_FOUND, "line 1:12: User 'carol' does not exist");
        assertFails(admin, "DROP USER admin", ErrorCode.INVALID_ARGUMENT, "line 1:11: User 'admin' is an administrator and cannot be dropped");
        assertFails(admin, "DROP USER IF EXISTS admin", ErrorCode.INVALID_ARGUMENT, "line 1:21: User 'admin' is an administrator and cannot be dropped");
        assertFails(admin, "CREATE OR REPLACE USER bob PASSWORD 'bob-secret'", ErrorCode.NOT_SUPPORTED,
                "line 1:1: CREATE OR REPLACE USER is not supported: use ALTER USER name PASSWORD '...' to change a password");
    }

    @Test
    void passwordsNeedEightCharacters()
    {
        assertFails(admin, "CREATE USER bob PASSWORD ''", ErrorCode.INVALID_ARGUMENT, "line 1:13: Password must have at least 8 characters");
        assertFails(admin, "CREATE USER bob PASSWORD 'short12'", ErrorCode.INVALID_ARGUMENT, "line 1:13: Password must have at least 8 characters");
        update(admin, "CREATE USER bob PASSWORD 'eight888'");
        assertFails(bob, "ALTER USER bob PASSWORD 'short'", ErrorCode.INVALID_ARGUMENT, "line 1:12: Password must have at least 8 characters");
        assertThat(users.passwords).containsEntry("bob", "eight888");
    }

    @Test
    void userNamesThatCouldNeverLogInAreRejected()
    {
        assertFails(admin, "CREATE USER \"a:b\" PASSWORD 'long-enough'", ErrorCode.INVALID_ARGUMENT,
                "line 1:13: User name 'a:b' must not contain ':' or control characters");
        assertThat(users.passwords).containsOnlyKeys("admin");
    }

    @Test
    void otherUsersMayOnlyChangeTheirOwnPassword()
    {
        update(admin, "CREATE USER bob PASSWORD 'bob-secret'");
        update(admin, "CREATE USER carol PASSWORD 'carol-secret'");

        assertFails(bob, "CREATE USER dave PASSWORD 'dave-secret'", ErrorCode.PERMISSION_DENIED,
                "line 1:1: Permission denied: CREATE USER needs an administrator; user 'bob' is not one");
        assertFails(bob, "DROP USER carol", ErrorCode.PERMISSION_DENIED,
                "line 1:1: Permission denied: DROP USER needs an administrator; user 'bob' is not one");
        assertFails(bob, "SHOW USERS", ErrorCode.PERMISSION_DENIED,
                "line 1:1: Permission denied: SHOW USERS needs an administrator; user 'bob' is not one");
        assertFails(bob, "ALTER USER carol PASSWORD 'hijacked-1'", ErrorCode.PERMISSION_DENIED,
                "line 1:1: Permission denied: changing the password of user 'carol' needs an administrator; user 'bob' may change only its own");
        // whether a user exists is not revealed to non-administrators
        assertFails(bob, "ALTER USER nobody PASSWORD 'hijacked-1'", ErrorCode.PERMISSION_DENIED,
                "line 1:1: Permission denied: changing the password of user 'nobody' needs an administrator; user 'bob' may change only its own");
        assertThat(users.passwords).containsEntry("carol", "carol-secret").doesNotContainKey("dave");

        update(bob, "ALTER USER BOB PASSWORD 'bob-secret-2'");
        assertThat(users.passwords).containsEntry("bob", "bob-secret-2");
    }

    @Test
    void withoutTheServerUserStatementsAreNotSupported()
    {
        try (Engine embedded = Engine.createEmbedded()) {
            Session session = embedded.createSession("admin");
            for (String sql : List.of("CREATE USER bob PASSWORD 'bob-secret'", "ALTER USER bob PASSWORD 'bob-secret'", "DROP USER bob", "SHOW USERS")) {
                assertFails(session, sql, ErrorCode.NOT_SUPPORTED, "line 1:1: User management needs the Ontul server (bin/ontul start)");
            }
        }
    }

    @Test
    void errorsNeverContainThePassword()
    {
        update(admin, "CREATE USER bob PASSWORD 'bob-secret'");
        List<String> statements = List.of(
                "CREATE USER bob PASSWORD 'bob-secret'",
                "CREATE USER bob PASSWORD 'bob-secre'",
                "CREATE USER bob 'bob-secret'",
                "CREATE USER bob PASSWORD bob_secret",
                "ALTER USER carol PASSWORD 'bob-secret'",
                "EXPLAIN CREATE USER bob PASSWORD 'bob-secret'");
        for (String sql : statements) {
            assertThatThrownBy(() -> update(admin, sql)).isInstanceOf(OntulException.class)
                    .satisfies(failure -> assertThat(failure.getMessage()).doesNotContain("bob-secret").doesNotContain("bob_secret").doesNotContain("bob-secre"));
            assertThatThrownBy(() -> update(bob, sql)).isInstanceOf(OntulException.class)
                    .satisfies(failure -> assertThat(failure.getMessage()).doesNotContain("bob-secret").doesNotContain("bob_secret").doesNotContain("bob-secre"));
        }
    }

    @Test
    void preparedStatementsWithoutMarkersWork()
    {
        try (QueryResult result = admin.execute("CREATE USER bob PASSWORD 'bob-secret'", List.of())) {
            assertThat(result.isUpdate()).isTrue();
        }
        assertThat(users.passwords).containsEntry("bob", "bob-secret");
        assertThat(admin.prepare("ALTER USER bob PASSWORD 'bob-secret'").parameterSchema().getFields()).isEmpty();
    }

    private static long update(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            assertThat(result.isUpdate()).isTrue();
            VectorSchemaRoot batch = result.nextBatch();
            return ((org.apache.arrow.vector.BigIntVector) batch.getVector(0)).get(0);
        }
    }

    private static List<String> rows(Session session, String sql)
    {
        List<String> rows = new ArrayList<>();
        try (QueryResult result = session.execute(sql)) {
            assertThat(result.isUpdate()).isFalse();
            assertThat(result.schema().getFields().get(0).getName()).isEqualTo("user");
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                VarCharVector vector = (VarCharVector) batch.getVector(0);
                for (int row = 0; row < batch.getRowCount(); row++) {
                    rows.add(new String(vector.get(row), StandardCharsets.UTF_8));
                }
            }
        }
        return rows;
    }

    private static void assertFails(Session session, String sql, ErrorCode code, String message)
    {
        assertThatThrownBy(() -> session.execute(sql).close())
                .isInstanceOfSatisfying(OntulException.class, failure -> assertThat(failure.code()).isEqualTo(code))
                .hasMessage(message);
    }

    /** A fake that keeps plain passwords, to check what the engine hands over. */
    private static final class InMemoryUsers
            implements UserManagement
    {
        private final Map<String, String> passwords = new TreeMap<>();

        @Override
        public boolean isAdmin(String user)
        {
            return user.equals("admin");
        }

        @Override
        public synchronized boolean createUser(String user, String password)
        {
            return passwords.putIfAbsent(user, password) == null;
        }

        @Override
        public synchronized boolean setPassword(String user, String password)
        {
            return passwords.replace(user, password) != null;
        }

        @Override
        public synchronized boolean dropUser(String user)
        {
            return passwords.remove(user) != null;
        }

        @Override
        public synchronized List<String> listUsers()
        {
            return List.copyOf(passwords.keySet());
        }
    }
}
