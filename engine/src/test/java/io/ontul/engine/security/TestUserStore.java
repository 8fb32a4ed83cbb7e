package io.ontul.engine.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.metadata.MetadataStore;

class TestUserStore
{
    @TempDir
    Path dataDirectory;

    private MetadataStore openMetadata()
    {
        return MetadataStore.open(new EngineConfig(Map.of(MetadataStore.DATA_DIR, dataDirectory.toString()), Map.of()));
    }

    @Test
    void storesOnlyASaltedSlowHashThatSurvivesARestart()
    {
        try (MetadataStore metadata = openMetadata()) {
            UserStore users = UserStore.open(metadata.users(), Optional.of(dataDirectory), new PasswordHasher());
            users.setPassword("admin", "secret-1");
            assertThat(metadata.users().hashes().get("admin")).doesNotContain("secret-1").startsWith("pbkdf2-sha256$" + PasswordHasher.ITERATIONS + "$");
        }
        try (MetadataStore metadata = openMetadata()) {
            UserStore reopened = UserStore.open(metadata.users(), Optional.of(dataDirectory), new PasswordHasher());
            assertThat(reopened.verify("admin", "secret-1")).isTrue();
            assertThat(reopened.verify("admin", "secret-2")).isFalse();
            assertThat(reopened.verify("nobody", "secret-1")).isFalse();
        }
    }

    @Test
    void importsTheUsersFileOfEarlierVersionsOnce()
            throws IOException
    {
        PasswordHasher hasher = new PasswordHasher();
        Path legacy = dataDirectory.resolve(UserStore.LEGACY_FILE_NAME);
        Files.writeString(legacy, "admin=" + hasher.hash("old-admin-secret").replace("$", "\\$") + "\nbob=" + hasher.hash("bob-secret") + "\n");
        try (MetadataStore metadata = openMetadata()) {
            UserStore users = UserStore.open(metadata.users(), Optional.of(dataDirectory), hasher);
            assertThat(users.users()).containsExactly("admin", "bob");
            assertThat(users.verify("admin", "old-admin-secret")).isTrue();
            assertThat(users.verify("bob", "bob-secret")).isTrue();
            users.setPassword("bob", "bob-secret-2");
        }
        assertThat(legacy).doesNotExist();
        assertThat(dataDirectory.resolve(UserStore.LEGACY_FILE_NAME + ".imported")).exists();
        try (MetadataStore metadata = openMetadata()) {
            assertThat(UserStore.open(metadata.users(), Optional.of(dataDirectory), hasher).verify("bob", "bob-secret-2")).isTrue();
        }
    }

    /** From the server's login tests: user names cannot be told apart by the work a wrong password costs. */
    @Test
    void unknownAndKnownUsersCostOneDerivationEachAndVerifiedPasswordsNone()
    {
        try (MetadataStore metadata = openMetadata()) {
            PasswordHasher hasher = new PasswordHasher();
            UserStore users = UserStore.open(metadata.users(), Optional.of(dataDirectory), hasher);
            users.setPassword("bob", "bob-password-1");
            hasher.unknownUserHash();

            long before = hasher.derivations();
            assertThat(users.verify("nobody", "some-password")).isFalse();
            assertThat(hasher.derivations() - before).isEqualTo(1);

            before = hasher.derivations();
            assertThat(users.verify("bob", "wrong-password")).isFalse();
            assertThat(hasher.derivations() - before).isEqualTo(1);

            before = hasher.derivations();
            assertThat(users.verify("bob", "bob-password-1")).isTrue();
            assertThat(hasher.derivations() - before).isEqualTo(1);
            // the same password again: from the cache
            before = hasher.derivations();
            assertThat(users.verify("bob", "bob-password-1")).isTrue();
            assertThat(hasher.derivations() - before).isZero();
            // a wrong password is never answered from the cache
            assertThat(users.verify("bob", "bob-password-2")).isFalse();
            assertThat(hasher.derivations() - before).isEqualTo(1);

            // a changed password ends the cached check
            users.replacePassword("bob", "bob-password-2");
            before = hasher.derivations();
            assertThat(users.verify("bob", "bob-password-1")).isFalse();
            assertThat(users.verify("bob", "bob-password-2")).isTrue();
            assertThat(hasher.derivations() - before).isEqualTo(2);
            users.drop("bob");
            assertThat(users.verify("bob", "bob-password-2")).isFalse();
        }
    }

    @Test
    void samePasswordGetsDifferentSalts()
    {
        PasswordHasher hasher = new PasswordHasher();
        String first = hasher.hash("same");
        String second = hasher.hash("same");
        assertThat(first).isNotEqualTo(second);
        assertThat(hasher.verify("same", first)).isTrue();
        assertThat(hasher.verify("same", second)).isTrue();
        assertThat(hasher.verify("same", "garbage")).isFalse();
    }
}
