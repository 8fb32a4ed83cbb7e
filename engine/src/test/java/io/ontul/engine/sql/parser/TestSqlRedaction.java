package io.ontul.engine.sql.parser;

import static io.ontul.engine.sql.parser.SqlRedaction.mayHoldPasswords;
import static io.ontul.engine.sql.parser.SqlRedaction.redact;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestSqlRedaction
{
    @Test
    void masksEveryStringOfAUserStatement()
    {
        assertThat(redact("CREATE USER bob PASSWORD 'secret-1'")).isEqualTo("CREATE USER bob PASSWORD '***'");
        assertThat(redact("create or replace user if not exists bob password 'it''s; secret'")).isEqualTo("create or replace user if not exists bob password '***'");
        assertThat(redact("ALTER USER \"Bob\" PASSWORD 'secret-1';")).isEqualTo("ALTER USER \"Bob\" PASSWORD '***';");
        // misplaced or unterminated passwords too
        assertThat(redact("CREATE USER bob 'secret-1'")).isEqualTo("CREATE USER bob '***'");
        assertThat(redact("alter user bob password 'secret-1")).isEqualTo("alter user bob password '***'");
        assertThat(redact("/* note */ CREATE -- why\n USER bob PASSWORD 'secret-1'")).isEqualTo("/* note */ CREATE -- why\n USER bob PASSWORD '***'");
    }

    @Test
    void masksAStringAfterPasswordAnywhere()
    {
        assertThat(redact("CREATE USR bob PASSWORD 'secret-1'")).isEqualTo("CREATE USR bob PASSWORD '***'");
        assertThat(redact("ALTER USER SET PASSWORD = 'secret-1'")).isEqualTo("ALTER USER SET PASSWORD = '***'");
        assertThat(redact("SELECT * FROM t WHERE password = 'secret-1' AND name = 'bob'")).isEqualTo("SELECT * FROM t WHERE password = '***' AND name = 'bob'");
    }

    @Test
    void keepsOtherStatementsAsWritten()
    {
        String query = "SELECT 'CREATE USER x PASSWORD ''y''', \"password\" FROM t -- password 'z'\n/* ALTER USER 'w' */";
        assertThat(redact(query)).isEqualTo(query);
        assertThat(mayHoldPasswords(query)).isFalse();
        assertThat(redact("DROP USER bob")).isEqualTo("DROP USER bob");
        assertThat(redact("SHOW USERS LIKE 'b%'")).isEqualTo("SHOW USERS LIKE 'b%'");
        assertThat(redact("")).isEmpty();
    }

    @Test
    void redactsAScriptStatementByStatement()
    {
        assertThat(redact("SELECT 'a'; CREATE USER bob PASSWORD 'secret-1'; SELECT 'b'"))
                .isEqualTo("SELECT 'a'; CREATE USER bob PASSWORD '***'; SELECT 'b'");
    }

    @Test
    void tellsWhereAPasswordMayHide()
    {
        assertThat(mayHoldPasswords("CREATE USER bob PASSWORD secret1234")).isTrue();
        assertThat(mayHoldPasswords("ALTER USER bob secret1234")).isTrue();
        assertThat(mayHoldPasswords("CREATE TABLE t (password VARCHAR)")).isTrue();
        assertThat(mayHoldPasswords("DROP USER bob")).isFalse();
        assertThat(mayHoldPasswords("SELECT 1")).isFalse();
    }
}
