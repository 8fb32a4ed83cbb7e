package io.ontul.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

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
            UserStore users = UserStore.open(metadata, dataDirectory, new PasswordHasher());
            users.setPassword("admin", "secret-1");
            assertThat(metadata.users().hashes().get("admin")).doesNotContain("secret-1").startsWith("pbkdf2-sha256$" + PasswordHasher.ITERATIONS + "$");
        }
        try (MetadataStore metadata = openMetadata()) {
            UserStore reopened = UserStore.open(metadata, dataDirectory, new PasswordHasher());
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
            UserStore users = UserStore.open(metadata, dataDirectory, hasher);
            assertThat(users.users()).containsExactly("admin", "bob");
            assertThat(users.verify("admin", "old-admin-secret")).isTrue();
            assertThat(users.verify("bob", "bob-secret")).isTrue();
            users.setPassword("bob", "bob-secret-2");
        }
        assertThat(legacy).doesNotExist();
        assertThat(dataDirectory.resolve(UserStore.LEGACY_FILE_NAME + ".imported")).exists();
        try (MetadataStore metadata = openMetadata()) {
            assertThat(UserStore.open(metadata, dataDirectory, hasher).verify("bob", "bob-secret-2")).isTrue();
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
