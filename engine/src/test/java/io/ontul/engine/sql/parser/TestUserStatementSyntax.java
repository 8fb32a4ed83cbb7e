package io.ontul.engine.sql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.junit.jupiter.api.Test;

import io.ontul.engine.sql.tree.SqlAlterUser;
import io.ontul.engine.sql.tree.SqlCreateUser;
import io.ontul.engine.sql.tree.SqlDropUser;
import io.ontul.engine.sql.tree.SqlShowUsers;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** CREATE USER, ALTER USER, DROP USER and SHOW USERS in the parser; passwords never shown. */
class TestUserStatementSyntax
{
    @Test
    void createUser()
    {
        SqlCreateUser create = parse("CREATE USER Bob PASSWORD 'it''s secret'", SqlCreateUser.class);
        assertThat(create.name().getSimple()).isEqualTo("bob");
        assertThat(create.password()).isEqualTo("it's secret");
        assertThat(create.isIfNotExists()).isFalse();
        assertThat(create.getReplace()).isFalse();

        SqlCreateUser ifNotExists = parse("create user if not exists \"Bob\" password 'secret-1'", SqlCreateUser.class);
        assertThat(ifNotExists.name().getSimple()).isEqualTo("Bob");
        assertThat(ifNotExists.isIfNotExists()).isTrue();

        assertThat(parse("CREATE OR REPLACE USER bob PASSWORD 'secret-1'", SqlCreateUser.class).getReplace()).isTrue();
        // IF, PASSWORD and USERS stay usable as names
        assertThat(parse("CREATE USER if PASSWORD 'secret-1'", SqlCreateUser.class).name().getSimple()).isEqualTo("if");
        assertThat(parse("CREATE USER password PASSWORD 'secret-1'", SqlCreateUser.class).name().getSimple()).isEqualTo("password");
    }

    @Test
    void alterUser()
    {
        SqlAlterUser alter = parse("ALTER USER bob PASSWORD 'new-secret'", SqlAlterUser.class);
        assertThat(alter.name().getSimple()).isEqualTo("bob");
        assertThat(alter.password()).isEqualTo("new-secret");
        assertThat(parse("alter user \"Bob\" password ''", SqlAlterUser.class).password()).isEmpty();
    }

    @Test
    void dropUser()
    {
        SqlDropUser drop = parse("DROP USER Bob", SqlDropUser.class);
        assertThat(drop.name().getSimple()).isEqualTo("bob");
        assertThat(drop.isIfExists()).isFalse();
        assertThat(parse("drop user if exists bob", SqlDropUser.class).isIfExists()).isTrue();
        assertThat(parse("DROP USER if", SqlDropUser.class).name().getSimple()).isEqualTo("if");
    }

    @Test
    void showUsers()
    {
        assertThat(parse("SHOW USERS", SqlShowUsers.class).likePattern()).isEmpty();
        assertThat(parse("show users like 'b%'", SqlShowUsers.class).likePattern()).contains("b%");
    }

    @Test
    void newWordsStayUsableAsNames()
    {
        SqlSelect select = parse("SELECT password, users FROM users WHERE password = 'x'", SqlSelect.class);
        assertThat(unparse(select)).isEqualTo("SELECT \"password\", \"users\" FROM \"users\" WHERE \"password\" = 'x'");
        // USER is Calcite's reserved word for the current user, as before
        assertThat(parse("SELECT USER", SqlSelect.class)).isNotNull();
    }

    @Test
    void renderingMasksThePassword()
    {
        assertThat(unparse(OntulParser.parse("CREATE USER IF NOT EXISTS bob PASSWORD 'secret-1'")))
                .isEqualTo("CREATE USER IF NOT EXISTS \"bob\" PASSWORD '***'");
        assertThat(unparse(OntulParser.parse("CREATE OR REPLACE USER bob PASSWORD 'secret-1'")))
                .isEqualTo("CREATE OR REPLACE USER \"bob\" PASSWORD '***'");
        assertThat(unparse(OntulParser.parse("ALTER USER bob PASSWORD 'secret-1'"))).isEqualTo("ALTER USER \"bob\" PASSWORD '***'");
        assertThat(OntulParser.parse("ALTER USER bob PASSWORD 'secret-1'").toString()).doesNotContain("secret-1");
        assertThat(unparse(OntulParser.parse("DROP USER IF EXISTS bob"))).isEqualTo("DROP USER IF EXISTS \"bob\"");
        assertThat(unparse(OntulParser.parse("SHOW USERS LIKE 'b%'"))).isEqualTo("SHOW USERS LIKE 'b%'");
    }

    @Test
    void copiesKeepThePassword()
    {
        SqlCreateUser create = parse("CREATE USER IF NOT EXISTS bob PASSWORD 'secret-1'", SqlCreateUser.class);
        SqlCreateUser createCopy = (SqlCreateUser) create.clone(SqlParserPos.ZERO);
        assertThat(createCopy.password()).isEqualTo("secret-1");
        assertThat(createCopy.isIfNotExists()).isTrue();
        assertThat(((SqlAlterUser) parse("ALTER USER bob PASSWORD 'secret-2'", SqlAlterUser.class).clone(SqlParserPos.ZERO)).password()).isEqualTo("secret-2");
    }

    @Test
    void explainTakesNoUserStatement()
    {
        assertSyntaxError("EXPLAIN CREATE USER bob PASSWORD 'secret-1'", "line 1:9: Syntax error at or near \"CREATE\"");
        assertSyntaxError("EXPLAIN ALTER USER bob PASSWORD 'secret-1'", "line 1:9: Syntax error at or near \"ALTER\"");
    }

    @Test
    void syntaxErrors()
    {
        assertSyntaxError("CREATE USER", "line 1:12: Syntax error at end of input; expected one of: identifier");
        assertSyntaxError("CREATE USER bob", "line 1:16: Syntax error at end of input; expected one of: PASSWORD");
        assertSyntaxError("CREATE USER bob PASSWORD", "line 1:25: Syntax error at end of input; expected one of: string");
        assertSyntaxError("ALTER USER bob", "line 1:15: Syntax error at end of input; expected one of: PASSWORD");
        assertSyntaxError("DROP USER", "line 1:10: Syntax error at end of input; expected one of: identifier");
        assertSyntaxError("DROP USER bob PASSWORD 'x'", "line 1:15: Syntax error at or near \"PASSWORD\"; expected one of: ';', end of input");
        assertSyntaxError("SHOW USERS bob", "line 1:12: Syntax error at or near \"bob\"; expected one of: LIKE, ';', end of input");
        assertSyntaxError("CREATE USER user PASSWORD 'secret-1'", "line 1:13: Syntax error at or near \"user\"; expected one of: identifier");
    }

    @Test
    void syntaxErrorsNeverQuoteAPassword()
    {
        assertSyntaxError("CREATE USER bob 'secret-1'", "line 1:17: Syntax error; expected one of: PASSWORD");
        assertSyntaxError("CREATE USER bob PASSWORD secret1234", "line 1:26: Syntax error; expected one of: string");
        assertSyntaxError("ALTER USER bob PASSWORD \"secret-1\"", "line 1:25: Syntax error; expected one of: string");
        assertSyntaxError("ALTER USER bob PASSWORD = 'secret-1'", "line 1:25: Syntax error at or near \"=\"; expected one of: string");
        assertSyntaxError("ALTER USER bob PASSWORD 'secret-1' 'secret-2'", "line 1:36: Syntax error; expected one of: ';', end of input");
        assertSyntaxError("ALTER USER bob PASSWORD 'secret-1", "line 1:25: Unterminated string literal");
        assertThatThrownBy(() -> OntulParser.parse("CREATE USER bob PASSWORD secret1234")).hasNoCause();
    }

    private static <T extends SqlNode> T parse(String sql, Class<T> type)
    {
        SqlNode node = OntulParser.parse(sql);
        assertThat(node).isInstanceOf(type);
        return type.cast(node);
    }

    private static void assertSyntaxError(String sql, String message)
    {
        assertThatThrownBy(() -> OntulParser.parse(sql))
                .isInstanceOfSatisfying(OntulException.class, exception -> assertThat(exception.code()).isEqualTo(ErrorCode.SYNTAX_ERROR))
                .hasMessage(message);
    }

    private static String unparse(SqlNode node)
    {
        return node.toSqlString(CalciteSqlDialect.DEFAULT).getSql().replace('\n', ' ');
    }
}
