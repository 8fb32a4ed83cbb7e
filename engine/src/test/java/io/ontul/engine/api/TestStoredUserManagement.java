package io.ontul.engine.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.metadata.MetadataStore;
import io.ontul.engine.security.PasswordHasher;
import io.ontul.engine.security.UserStore;

class TestStoredUserManagement
{
    @TempDir
    Path dataDirectory;

    @Test
    void changesReachTheUserStoreAndItsDatabase()
    {
        MetadataStore metadata = MetadataStore.inMemory();
        UserStore store = UserStore.open(metadata.users(), Optional.of(dataDirectory), new PasswordHasher());
        store.setPassword("admin", "admin-password");
        StoredUserManagement users = new StoredUserManagement(store, new io.ontul.engine.security.Grants(metadata.grants(), "admin", null, io.ontul.engine.security.AuditLog.NONE));

        assertThat(users.isAdmin("admin")).isTrue();
        assertThat(users.isAdmin("bob")).isFalse();
        assertThat(users.isAdmin("Admin")).isFalse();

        assertThat(users.createUser("bob", "bob-password-1")).isTrue();
        assertThat(users.createUser("bob", "bob-password-2")).isFalse();
        assertThat(store.verify("bob", "bob-password-1")).isTrue();

        assertThat(users.setPassword("bob", "bob-password-3")).isTrue();
        assertThat(users.setPassword("carol", "carol-password")).isFalse();
        assertThat(store.verify("bob", "bob-password-3")).isTrue();
        assertThat(store.verify("bob", "bob-password-1")).isFalse();
        assertThat(store.exists("carol")).isFalse();

        assertThat(users.createUser("carol", "carol-password")).isTrue();
        assertThat(users.listUsers()).containsExactly("admin", "bob", "carol");
        assertThat(users.dropUser("carol")).isTrue();
        assertThat(users.dropUser("carol")).isFalse();

        assertThat(metadata.users().hashes()).containsOnlyKeys("admin", "bob")
                .allSatisfy((user, hash) -> assertThat(hash).startsWith("pbkdf2-sha256$").doesNotContain("password-"));

        UserStore reopened = UserStore.open(metadata.users(), Optional.of(dataDirectory), new PasswordHasher());
        assertThat(reopened.users()).containsExactly("admin", "bob");
        assertThat(reopened.verify("bob", "bob-password-3")).isTrue();
        assertThat(reopened.verify("admin", "admin-password")).isTrue();
        metadata.close();
    }
}
