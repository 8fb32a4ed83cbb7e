package io.ontul.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestStoreUserManagement
{
    @TempDir
    Path dataDirectory;

    @Test
    void changesReachTheUserStoreAndItsFile()
            throws IOException
    {
        UserStore store = UserStore.open(dataDirectory, new PasswordHasher());
        store.setPassword("admin", "admin-password");
        StoreUserManagement users = new StoreUserManagement(store, "admin");

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

        String file = Files.readString(dataDirectory.resolve(UserStore.FILE_NAME));
        assertThat(file).doesNotContain("password-").doesNotContain("carol");

        UserStore reopened = UserStore.open(dataDirectory, new PasswordHasher());
        assertThat(reopened.users()).containsExactly("admin", "bob");
        assertThat(reopened.verify("bob", "bob-password-3")).isTrue();
        assertThat(reopened.verify("admin", "admin-password")).isTrue();
    }
}
