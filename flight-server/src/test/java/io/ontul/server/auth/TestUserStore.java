package io.ontul.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestUserStore
{
    @TempDir
    Path dataDirectory;

    @Test
    void storesOnlyASaltedSlowHashReadableByTheOwner()
            throws IOException
    {
        UserStore users = UserStore.open(dataDirectory, new PasswordHasher());
        users.setPassword("admin", "secret-1");

        Path file = dataDirectory.resolve(UserStore.FILE_NAME);
        String content = Files.readString(file);
        assertThat(content).doesNotContain("secret-1").contains("admin=pbkdf2-sha256$" + PasswordHasher.ITERATIONS + "$");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");

        UserStore reopened = UserStore.open(dataDirectory, new PasswordHasher());
        assertThat(reopened.verify("admin", "secret-1")).isTrue();
        assertThat(reopened.verify("admin", "secret-2")).isFalse();
        assertThat(reopened.verify("nobody", "secret-1")).isFalse();
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
