package io.ontul.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.UserAccounts;
import io.ontul.engine.metadata.MetadataStore;
import io.ontul.engine.security.AuditLog;
import io.ontul.engine.security.PasswordHasher;
import io.ontul.engine.security.UserStore;
import io.ontul.server.OntulServer;

/**
 * Issue 23's login findings: user names cannot be told apart by the work a wrong password costs,
 * guessing is slowed, returning clients do not pay PBKDF2 again, a re-created user does not
 * inherit tokens, and the admin password obeys the length rule. Work is counted in PBKDF2
 * derivations, not read off the clock.
 */
class TestLoginHardening
{
    @TempDir
    Path dataDirectory;

    private MetadataStore openMetadata()
    {
        return MetadataStore.open(new EngineConfig(Map.of(MetadataStore.DATA_DIR, dataDirectory.toString()), Map.of()));
    }

    @Test
    void aHundredReturningClientsAtOnceAreServedFromTheCache()
            throws Exception
    {
        try (MetadataStore metadata = openMetadata()) {
            PasswordHasher hasher = new PasswordHasher();
            UserAccounts users = UserAccounts.over(UserStore.open(metadata.users(), Optional.of(dataDirectory), hasher), AuditLog.in(dataDirectory));
            users.setPassword("tableau", "dashboard-password");
            PasswordValidator validator = new PasswordValidator(users);
            validator.validate("tableau", "dashboard-password");
            long before = hasher.derivations();
            ExecutorService pool = Executors.newFixedThreadPool(100);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<String>> logins = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    logins.add(pool.submit(() -> {
                        start.await();
                        return validator.validate("tableau", "dashboard-password").getPeerIdentity();
                    }));
                }
                start.countDown();
                for (Future<String> login : logins) {
                    assertThat(login.get()).isEqualTo("tableau");
                }
            }
            finally {
                pool.shutdownNow();
            }
            assertThat(hasher.derivations() - before).isZero();
        }
    }

    @Test
    void aBurstOfFailuresMustWaitAndIsNotCheckedMeanwhile()
    {
        try (MetadataStore metadata = openMetadata()) {
            PasswordHasher hasher = new PasswordHasher();
            UserAccounts users = UserAccounts.over(UserStore.open(metadata.users(), Optional.of(dataDirectory), hasher), AuditLog.in(dataDirectory));
            users.setPassword("bob", "bob-password-1");
            AtomicLong now = new AtomicLong();
            PasswordValidator validator = new PasswordValidator(users, now::get);
            for (String user : List.of("bob", "nobody")) {
                for (int i = 0; i < LoginFailures.FREE_FAILURES; i++) {
                    String guess = "guess-" + i;
                    assertRefused(() -> validator.validate(user, guess), "Wrong user name or password");
                }
                long before = hasher.derivations();
                assertRefused(() -> validator.validate(user, "guess"), "Too many failed logins for user '" + user + "': try again in 1 s");
                assertRefused(() -> validator.validate(user, "bob-password-1"), "Too many failed logins for user '" + user + "': try again in 1 s");
                assertThat(hasher.derivations() - before).as("checks while waiting").isZero();
            }
            now.addAndGet(1_000_000_000L);
            // checked again, and still wrong: the wait doubles
            assertRefused(() -> validator.validate("bob", "guess"), "Wrong user name or password");
            assertRefused(() -> validator.validate("bob", "bob-password-1"), "Too many failed logins for user 'bob': try again in 2 s");
            now.addAndGet(2_000_000_000L);
            assertThat(validator.validate("bob", "bob-password-1").getPeerIdentity()).isEqualTo("bob");
            // success clears the count
            assertRefused(() -> validator.validate("bob", "guess"), "Wrong user name or password");
            assertRefused(() -> validator.validate("bob", "guess"), "Wrong user name or password");

            // the audit log has every attempt, in order, the slowed ones told apart
            List<String> expected = new ArrayList<>();
            for (String user : List.of("bob", "nobody")) {
                expected.addAll(java.util.Collections.nCopies(LoginFailures.FREE_FAILURES, user + " LOGIN_FAILED wrong user name or password"));
                expected.addAll(java.util.Collections.nCopies(2, user + " LOGIN_FAILED slowed: too many failed logins for the user, not checked"));
            }
            expected.add("bob LOGIN_FAILED wrong user name or password");
            expected.add("bob LOGIN_FAILED slowed: too many failed logins for the user, not checked");
            expected.add("bob LOGIN null");
            expected.addAll(java.util.Collections.nCopies(2, "bob LOGIN_FAILED wrong user name or password"));
            assertThat(AuditLog.in(dataDirectory).events()).extracting(event -> event.user() + " " + event.kind() + " " + event.detail())
                    .containsExactlyElementsOf(expected);
        }
        assertThat(LoginFailures.wait(40, LoginFailures.FREE_FAILURES)).isEqualTo(LoginFailures.MAX_WAIT);
    }

    /** A client trying many user names from one address is slowed too; other addresses are not. */
    @Test
    void manyNamesFromOneAddressMustWait()
            throws Exception
    {
        try (MetadataStore metadata = openMetadata()) {
            PasswordHasher hasher = new PasswordHasher();
            UserAccounts users = UserAccounts.over(UserStore.open(metadata.users(), Optional.of(dataDirectory), hasher), AuditLog.in(dataDirectory));
            users.setPassword("bob", "bob-password-1");
            AtomicLong now = new AtomicLong();
            PasswordValidator validator = new PasswordValidator(users, now::get);
            io.grpc.Context attacker = io.grpc.Context.current().withValue(ClientAddress.KEY, "10.0.0.66");
            io.grpc.Context colleague = io.grpc.Context.current().withValue(ClientAddress.KEY, "10.0.0.7");
            for (int i = 0; i < LoginFailures.FREE_ADDRESS_FAILURES; i++) {
                String user = "user" + i;
                attacker.run(() -> assertRefused(() -> validator.validate(user, "guess"), "Wrong user name or password"));
            }
            long before = hasher.derivations();
            attacker.run(() -> assertRefused(() -> validator.validate("someone-else", "guess"), "Too many failed logins from this address: try again in 1 s"));
            attacker.run(() -> assertRefused(() -> validator.validate("bob", "bob-password-1"), "Too many failed logins from this address: try again in 1 s"));
            assertThat(hasher.derivations() - before).as("checks while the address waits").isZero();
            assertThat(colleague.call(() -> validator.validate("bob", "bob-password-1").getPeerIdentity())).isEqualTo("bob");
            now.addAndGet(1_000_000_000L);
            assertThat(attacker.call(() -> validator.validate("bob", "bob-password-1").getPeerIdentity())).isEqualTo("bob");
        }
    }

    @Test
    void aUserCreatedAgainDoesNotInheritTheTokensOfTheDroppedOne()
            throws Exception
    {
        String adminPassword = "admin-password-login";
        try (OntulServer server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(adminPassword),
                        new PrintStream(OutputStream.nullOutputStream()));
                RootAllocator allocator = new RootAllocator();
                FlightClient adminClient = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
                FlightClient bobClient = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
                FlightSqlClient admin = new FlightSqlClient(adminClient);
                FlightSqlClient bob = new FlightSqlClient(bobClient)) {
            CredentialCallOption adminToken = adminClient.authenticateBasicToken("admin", adminPassword).orElseThrow();
            admin.executeUpdate("CREATE USER bob PASSWORD 'first-bob-password'", adminToken);
            CredentialCallOption oldBob = bobClient.authenticateBasicToken("bob", "first-bob-password").orElseThrow();
            bob.execute("SELECT 1", oldBob);

            admin.executeUpdate("DROP USER bob", adminToken);
            admin.executeUpdate("CREATE USER bob PASSWORD 'second-bob-password'", adminToken);
            assertThatThrownBy(() -> bob.execute("SELECT 1", oldBob))
                    .isInstanceOfSatisfying(FlightRuntimeException.class, e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED))
                    .hasMessageContaining("Invalid token: it was issued to an earlier user named 'bob'; log in again");
            CredentialCallOption newBob = bobClient.authenticateBasicToken("bob", "second-bob-password").orElseThrow();
            bob.execute("SELECT 1", newBob);
        }
    }

    /** Over a real socket the server knows the client's address: a spray of names from it waits. */
    @Test
    void theServerCountsFailuresPerClientAddress()
            throws Exception
    {
        String adminPassword = "admin-password-spray";
        try (OntulServer server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(adminPassword),
                        new PrintStream(OutputStream.nullOutputStream()));
                RootAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build()) {
            for (int i = 0; i < LoginFailures.FREE_ADDRESS_FAILURES; i++) {
                String user = "sprayed" + i;
                assertRefused(() -> client.authenticateBasicToken(user, "guess"), "Wrong user name or password");
            }
            assertRefused(() -> client.authenticateBasicToken("admin", adminPassword), "Too many failed logins from this address");
            // a client cannot claim another address: the server overwrites the header
            org.apache.arrow.flight.FlightCallHeaders spoofed = new org.apache.arrow.flight.FlightCallHeaders();
            spoofed.insert(ClientAddress.HEADER, "10.9.9.9");
            spoofed.insert("authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(("admin:" + adminPassword).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            assertRefused(() -> client.handshake(new org.apache.arrow.flight.HeaderCallOption(spoofed)), "Too many failed logins from this address");
        }
    }

    @Test
    void aShortAdminPasswordIsRefusedAtStart()
    {
        assertThatThrownBy(() -> OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of("secret"),
                        new PrintStream(OutputStream.nullOutputStream())).close())
                .hasMessage("ONTUL_ADMIN_PASSWORD must have at least 8 characters, as every password");
    }

    private static void assertRefused(Runnable login, String message)
    {
        assertThatThrownBy(login::run)
                .isInstanceOfSatisfying(FlightRuntimeException.class, e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED))
                .hasMessageContaining(message);
    }
}
