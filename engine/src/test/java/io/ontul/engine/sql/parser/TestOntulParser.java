package io.ontul.engine.sql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Stream;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlDropSchema;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Litmus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.ontul.engine.sql.tree.SqlCreateCatalog;
import io.ontul.engine.sql.tree.SqlCreateSchemaWithProperties;
import io.ontul.engine.sql.tree.SqlCreateTableWithProperties;
import io.ontul.engine.sql.tree.SqlDropCatalog;
import io.ontul.engine.sql.tree.SqlExplainStatement;
import io.ontul.engine.sql.tree.SqlProperties;
import io.ontul.engine.sql.tree.SqlResetSession;
import io.ontul.engine.sql.tree.SqlSetSession;
import io.ontul.engine.sql.tree.SqlShowCatalogs;
import io.ontul.engine.sql.tree.SqlShowColumns;
import io.ontul.engine.sql.tree.SqlShowSchemas;
import io.ontul.engine.sql.tree.SqlShowTables;
import io.ontul.engine.sql.tree.SqlUse;
import io.ontul.engine.testing.TpchQueries;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

class TestOntulParser
{
    @Test
    void showCatalogs()
    {
        assertThat(parse("SHOW CATALOGS", SqlShowCatalogs.class).likePattern()).isEmpty();
        assertThat(parse("show catalogs like 'mem%'", SqlShowCatalogs.class).likePattern()).contains("mem%");
    }

    @Test
    void showSchemas()
    {
        SqlShowSchemas all = parse("SHOW SCHEMAS", SqlShowSchemas.class);
        assertThat(all.catalog()).isEmpty();
        assertThat(all.likePattern()).isEmpty();

        SqlShowSchemas filtered = parse("show schemas from Memory like 'd%'", SqlShowSchemas.class);
        assertThat(filtered.catalog().orElseThrow().names).containsExactly("memory");
        assertThat(filtered.likePattern()).contains("d%");

        assertThat(parse("SHOW SCHEMAS IN \"Memory\"", SqlShowSchemas.class).catalog().orElseThrow().names).containsExactly("Memory");
    }

    @Test
    void showTables()
    {
        assertThat(parse("SHOW TABLES", SqlShowTables.class).schema()).isEmpty();

        SqlShowTables qualified = parse("SHOW TABLES FROM memory.default", SqlShowTables.class);
        assertThat(qualified.schema().orElseThrow().names).containsExactly("memory", "default");
        assertThat(qualified.likePattern()).isEmpty();

        SqlShowTables filtered = parse("show tables in tiny like 'line%'", SqlShowTables.class);
        assertThat(filtered.schema().orElseThrow().names).containsExactly("tiny");
        assertThat(filtered.likePattern()).contains("line%");
    }

    @Test
    void showColumns()
    {
        assertThat(parse("SHOW COLUMNS FROM memory.default.t", SqlShowColumns.class).table().names).containsExactly("memory", "default", "t");
        assertThat(parse("show columns in t", SqlShowColumns.class).table().names).containsExactly("t");
    }

    @Test
    void describeIsCalcitesDescribeTable()
    {
        assertThat(parse("DESCRIBE memory.default.t", SqlDescribeTable.class).getTable().names).containsExactly("memory", "default", "t");
        assertThat(parse("describe table t", SqlDescribeTable.class).getTable().names).containsExactly("t");
    }

    @Test
    void setSession()
    {
        SqlSetSession engineProperty = parse("SET SESSION query_max_memory = '1GB'", SqlSetSession.class);
        assertThat(engineProperty.name().names).containsExactly("query_max_memory");
        assertThat(engineProperty.valueText()).isEqualTo("1GB");

        SqlSetSession catalogProperty = parse("set session iceberg.compression_codec = 'ZSTD'", SqlSetSession.class);
        assertThat(catalogProperty.name().names).containsExactly("iceberg", "compression_codec");
        assertThat(catalogProperty.valueText()).isEqualTo("ZSTD");

        assertThat(parse("SET SESSION task_concurrency = 4", SqlSetSession.class).valueText()).isEqualTo("4");
        assertThat(parse("SET SESSION offset_seconds = -30", SqlSetSession.class).valueText()).isEqualTo("-30");
        assertThat(parse("SET SESSION spill_enabled = true", SqlSetSession.class).valueText()).isEqualTo("true");
        assertSyntaxError("SET SESSION spill_enabled = null", "line 1:29: Syntax error at or near \"null\"; expected one of: DECIMAL, TRUE, FALSE, '+', '-', string, number");
    }

    @Test
    void resetSession()
    {
        assertThat(parse("RESET SESSION query_max_memory", SqlResetSession.class).name().names).containsExactly("query_max_memory");
        assertThat(parse("reset session iceberg.compression_codec", SqlResetSession.class).name().names).containsExactly("iceberg", "compression_codec");
    }

    @Test
    void calcitesSetAndResetStillParse()
    {
        assertThat(OntulParser.parse("SET x = 1")).isInstanceOf(SqlSetOption.class);
        assertThat(OntulParser.parse("ALTER SESSION SET x = 1")).isInstanceOf(SqlSetOption.class);
    }

    @Test
    void explain()
    {
        SqlExplainStatement plain = parse("EXPLAIN SELECT * FROM t", SqlExplainStatement.class);
        assertThat(plain.isAnalyze()).isFalse();
        assertThat(plain.statement()).isInstanceOf(SqlSelect.class);

        SqlExplainStatement analyze = parse("explain analyze select count(*) from t", SqlExplainStatement.class);
        assertThat(analyze.isAnalyze()).isTrue();
        assertThat(analyze.statement()).isInstanceOf(SqlSelect.class);

        assertThat(parse("EXPLAIN INSERT INTO t VALUES (1)", SqlExplainStatement.class).statement()).isInstanceOf(SqlInsert.class);
        assertThat(parse("EXPLAIN WITH a AS (SELECT 1 AS x) SELECT x FROM a", SqlExplainStatement.class).statement().getKind()).isEqualTo(SqlKind.WITH);
    }

    @Test
    void calcitesExplainPlanForStillParses()
    {
        SqlExplain explain = parse("EXPLAIN PLAN FOR SELECT * FROM t", SqlExplain.class);
        assertThat(explain.getExplicandum()).isInstanceOf(SqlSelect.class);
        assertThat(parse("explain plan as json for select 1", SqlExplain.class).getFormat().name()).isEqualTo("JSON");
    }

    @Test
    void use()
    {
        assertThat(parse("USE memory.default", SqlUse.class).name().names).containsExactly("memory", "default");
        assertThat(parse("use tiny", SqlUse.class).name().names).containsExactly("tiny");
    }

    @Test
    void createTable()
    {
        SqlCreateTable create = parse("CREATE TABLE memory.default.t (id BIGINT NOT NULL, name VARCHAR, price DECIMAL(10, 2) NULL)", SqlCreateTable.class);
        assertThat(create.name.names).containsExactly("memory", "default", "t");
        assertThat(create.ifNotExists).isFalse();
        assertThat(create.query).isNull();
        assertThat(create.columnList).hasSize(3);
        SqlColumnDeclaration id = (SqlColumnDeclaration) create.columnList.get(0);
        assertThat(id.name.getSimple()).isEqualTo("id");
        assertThat(typeName(id.dataType)).isEqualTo(SqlTypeName.BIGINT);
        assertThat(id.dataType.getNullable()).isFalse();
        SqlColumnDeclaration price = (SqlColumnDeclaration) create.columnList.get(2);
        assertThat(typeName(price.dataType)).isEqualTo(SqlTypeName.DECIMAL);
        assertThat(price.dataType.getNullable()).isTrue();

        assertThat(parse("create table if not exists t (a int)", SqlCreateTable.class).ifNotExists).isTrue();
    }

    @Test
    void createTableAsSelect()
    {
        SqlCreateTable create = parse("CREATE TABLE IF NOT EXISTS t2 AS SELECT a, b FROM t", SqlCreateTable.class);
        assertThat(create.ifNotExists).isTrue();
        assertThat(create.name.names).containsExactly("t2");
        assertThat(create.columnList).isNull();
        assertThat(create.query).isInstanceOf(SqlSelect.class);
    }

    @Test
    void dropTable()
    {
        SqlDropTable drop = parse("DROP TABLE memory.default.t", SqlDropTable.class);
        assertThat(drop.name.names).containsExactly("memory", "default", "t");
        assertThat(drop.ifExists).isFalse();
        assertThat(parse("drop table if exists t", SqlDropTable.class).ifExists).isTrue();
    }

    @Test
    void createAndDropSchema()
    {
        SqlCreateSchemaWithProperties create = parse("CREATE SCHEMA IF NOT EXISTS memory.analytics", SqlCreateSchemaWithProperties.class);
        assertThat(create.name().names).containsExactly("memory", "analytics");
        assertThat(create.ifNotExists()).isTrue();
        assertThat(parse("create schema analytics", SqlCreateSchemaWithProperties.class).ifNotExists()).isFalse();
        SqlCreateSchemaWithProperties located = parse("CREATE SCHEMA lake.db WITH (location = 's3://b/db')", SqlCreateSchemaWithProperties.class);
        assertThat(SqlProperties.values(located.properties())).containsExactly(java.util.Map.entry("location", "s3://b/db"));

        SqlDropSchema drop = parse("DROP SCHEMA IF EXISTS memory.analytics", SqlDropSchema.class);
        assertThat(drop.name.names).containsExactly("memory", "analytics");
        assertThat(drop.ifExists).isTrue();
        assertThat(parse("drop schema analytics", SqlDropSchema.class).ifExists).isFalse();
    }

    @Test
    void catalogStatementsAndProperties()
    {
        SqlCreateCatalog create = parse("CREATE CATALOG IF NOT EXISTS pg USING jdbc WITH ('connection-url' = 'jdbc:postgresql://h/db', "
                + "kafka.bootstrap.servers = 'b:9092', \"Mixed\" = TRUE, n = -3, x = 1.5, p = ARRAY['day(ts)', 'bucket(16, id)'])", SqlCreateCatalog.class);
        assertThat(create.name().getSimple()).isEqualTo("pg");
        assertThat(create.connector().getSimple()).isEqualTo("jdbc");
        assertThat(create.ifNotExists()).isTrue();
        assertThat(SqlProperties.values(create.properties())).containsExactly(
                java.util.Map.entry("connection-url", "jdbc:postgresql://h/db"),
                java.util.Map.entry("kafka.bootstrap.servers", "b:9092"),
                java.util.Map.entry("Mixed", true),
                java.util.Map.entry("n", -3L),
                java.util.Map.entry("x", new java.math.BigDecimal("1.5")),
                java.util.Map.entry("p", java.util.List.of("day(ts)", "bucket(16, id)")));
        assertThat(parse("create catalog k using kafka", SqlCreateCatalog.class).properties()).isEmpty();

        SqlDropCatalog drop = parse("DROP CATALOG IF EXISTS pg", SqlDropCatalog.class);
        assertThat(drop.name().getSimple()).isEqualTo("pg");
        assertThat(drop.ifExists()).isTrue();

        SqlCreateTableWithProperties table = parse("CREATE TABLE kafka.default.events (id BIGINT) WITH ('topic' = 'events', 'format' = 'json')",
                SqlCreateTableWithProperties.class);
        assertThat(SqlProperties.values(table.properties())).containsOnlyKeys("topic", "format");
        SqlCreateTableWithProperties ctas = parse("CREATE TABLE t WITH (partitioning = ARRAY['x']) AS SELECT 1 AS x", SqlCreateTableWithProperties.class);
        assertThat(ctas.query).isNotNull();
        assertThat(SqlProperties.values(ctas.properties())).containsOnlyKeys("partitioning");
    }

    @Test
    void defaultAsPartOfName()
    {
        SqlSelect select = parse("select * from memory.default.t", SqlSelect.class);
        assertThat(((SqlIdentifier) select.getFrom()).names).containsExactly("memory", "default", "t");

        SqlInsert insert = parse("insert into memory.default.t values (1)", SqlInsert.class);
        assertThat(((SqlIdentifier) insert.getTargetTable()).names).containsExactly("memory", "default", "t");

        assertThat(((SqlIdentifier) parse("select * from default.t", SqlSelect.class).getFrom()).names).containsExactly("default", "t");
        SqlNode column = parse("select memory.default.t.x from memory.default.t", SqlSelect.class).getSelectList().get(0);
        assertThat(((SqlIdentifier) column).names).containsExactly("memory", "default", "t", "x");
    }

    @Test
    void defaultKeywordStillWorksInValues()
    {
        SqlInsert insert = parse("INSERT INTO t (a, b) VALUES (1, DEFAULT)", SqlInsert.class);
        SqlCall row = (SqlCall) ((SqlBasicCall) insert.getSource()).getOperandList().get(0);
        assertThat(row.getOperandList().get(1).getKind()).isEqualTo(SqlKind.DEFAULT);
    }

    @ParameterizedTest
    @MethodSource("wordsUsersWriteUnquoted")
    void wordsUsersWriteUnquoted(String sql, String unparsed)
    {
        assertThat(unparse(OntulParser.parse(sql))).isEqualTo(unparsed);
    }

    static Stream<Arguments> wordsUsersWriteUnquoted()
    {
        return Stream.of(
                Arguments.of("select sum(x) as value from t", "SELECT SUM(\"x\") AS \"value\" FROM \"t\""),
                Arguments.of("select value from t order by value", "SELECT \"value\" FROM \"t\" ORDER BY \"value\""),
                Arguments.of(
                        "select sum(value), coalesce(value, 0), (value) from t where (value > 1) and x in (value, 2)",
                        "SELECT SUM(\"value\"), COALESCE(\"value\", 0), \"value\" FROM \"t\" WHERE \"value\" > 1 AND \"x\" IN (\"value\", 2)"),
                Arguments.of(
                        "select year, month, day, hour, minute, second, at from t",
                        "SELECT \"year\", \"month\", \"day\", \"hour\", \"minute\", \"second\", \"at\" FROM \"t\""),
                Arguments.of(
                        "select date, time, timestamp from t where date > date '2020-01-01'",
                        "SELECT \"date\", \"time\", \"timestamp\" FROM \"t\" WHERE \"date\" > DATE '2020-01-01'"),
                Arguments.of(
                        "select tables, columns, schemas, catalogs, use, analyze, if from t",
                        "SELECT \"tables\", \"columns\", \"schemas\", \"catalogs\", \"use\", \"analyze\", \"if\" FROM \"t\""),
                Arguments.of(
                        "select year(d), extract(month from d), d + interval '1' day, cast(x as date), timestamp '2020-01-01 00:00:00' from t",
                        "SELECT YEAR(\"d\"), EXTRACT(MONTH FROM \"d\"), \"d\" + INTERVAL '1' DAY, CAST(\"x\" AS DATE), TIMESTAMP '2020-01-01 00:00:00' FROM \"t\""),
                Arguments.of("value (1), (2)", "VALUES ROW(1), ROW(2)"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "WITH a AS (SELECT 1 AS x) SELECT x FROM a UNION ALL SELECT 2 EXCEPT SELECT 3",
            "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(id, name)",
            "SELECT rank() OVER (PARTITION BY a ORDER BY b DESC) AS r, sum(c) OVER w FROM t WINDOW w AS (ORDER BY b)",
            "SELECT * FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(event_time), INTERVAL '10' SECOND))",
            "SELECT a FROM t WHERE a != 1 AND b % 2 = 0 GROUP BY 1 ORDER BY 1 LIMIT 10 OFFSET 5",
            "INSERT INTO t SELECT * FROM u",
            "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.id)",
    })
    void calciteQueries(String sql)
    {
        assertThat(OntulParser.parse(sql)).isNotNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tpchQueries")
    void tpchQuery(String name, String sql)
    {
        assertThat(OntulParser.parse(sql).getKind()).isIn(SqlKind.QUERY);
        assertThat(OntulParser.parse(TpchQueries.withTablePrefix(sql, "memory.default.")).getKind()).isIn(SqlKind.QUERY);
    }

    static Stream<Arguments> tpchQueries()
    {
        Map<String, String> queries = TpchQueries.load();
        assertThat(queries).hasSize(22);
        return queries.entrySet().stream().map(query -> Arguments.of(query.getKey(), query.getValue()));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SHOW CATALOGS LIKE 'a%'",
            "SHOW SCHEMAS FROM memory LIKE 'd%'",
            "SHOW TABLES FROM memory.default LIKE 't%'",
            "SHOW COLUMNS FROM memory.default.t",
            "SET SESSION iceberg.compression_codec = 'ZSTD'",
            "RESET SESSION query_max_memory",
            "EXPLAIN ANALYZE SELECT * FROM t",
            "USE memory.default",
            "CREATE TABLE IF NOT EXISTS memory.default.t (a INT NOT NULL, b VARCHAR(10))",
            "DROP SCHEMA IF EXISTS memory.s",
    })
    void unparseRoundTrips(String sql)
    {
        SqlNode node = OntulParser.parse(sql);
        assertThat(OntulParser.parse(unparse(node)).equalsDeep(node, Litmus.THROW)).isTrue();
    }

    @Test
    void statementMayEndWithSemicolon()
    {
        assertThat(OntulParser.parse("SELECT 1;\n")).isInstanceOf(SqlSelect.class);
    }

    @Test
    void syntaxErrors()
    {
        assertSyntaxError("select * from t where", "line 1:22: Syntax error at end of input");
        assertSyntaxError("SHOW TABLES FRM x", "line 1:13: Syntax error at or near \"FRM\"; expected one of: FROM, IN, LIKE, ';', end of input");
        assertSyntaxError("select a\nfrom t\norder x", "line 3:7: Syntax error at or near \"x\"; expected one of: BY");
        assertSyntaxError("select a from t where x = 'abc", "line 1:27: Unterminated string literal");
        assertSyntaxError("select * frm t", "line 1:14: Syntax error at or near \"t\"");
        assertSyntaxError("select # from t", "line 1:8: Syntax error at or near \"#\"");
        assertSyntaxError("select 1\nfrom t /* note", "line 2:8: Unterminated comment");
        assertSyntaxError("select 1; select 2", "line 1:11: Expected one statement, found 2");
        assertSyntaxError("  -- nothing\n", "line 1:1: Empty statement");
    }

    @Test
    void splitStatements()
    {
        assertThat(OntulParser.splitStatements("select 1; select 2;")).containsExactly("select 1", "select 2");
        assertThat(OntulParser.splitStatements("select 'a;b', \"c;\"\"d\" from t;\n\n  ;; \n")).containsExactly("select 'a;b', \"c;\"\"d\" from t");
        assertThat(OntulParser.splitStatements("select 'it''s; fine'; select 2")).containsExactly("select 'it''s; fine'", "select 2");
        assertThat(OntulParser.splitStatements("-- a comment; not a statement\nselect 1 /* ; */; -- trailing; comment\n"))
                .containsExactly("-- a comment; not a statement\nselect 1 /* ; */");
        assertThat(OntulParser.splitStatements("select 1 -- no newline at the end")).containsExactly("select 1 -- no newline at the end");
        assertThat(OntulParser.splitStatements(" \n-- only a comment\n")).isEmpty();
        assertThat(OntulParser.splitStatements("select 'unterminated; string")).containsExactly("select 'unterminated; string");
    }

    private static <T extends SqlNode> T parse(String sql, Class<T> type)
    {
        SqlNode node = OntulParser.parse(sql);
        assertThat(node).isInstanceOf(type);
        return type.cast(node);
    }

    @Test
    void rolesAndGrants()
    {
        assertThat(parse("CREATE ROLE Analysts", io.ontul.engine.sql.tree.SqlCreateRole.class).name().getSimple()).isEqualTo("analysts");
        assertThat(parse("drop role if exists analysts", io.ontul.engine.sql.tree.SqlDropRole.class).isIfExists()).isTrue();

        var grant = parse("GRANT SELECT, insert ON TABLE memory.default.t TO USER bob WITH GRANT OPTION", io.ontul.engine.sql.tree.SqlGrantPrivileges.class);
        assertThat(grant.isRevoke()).isFalse();
        assertThat(grant.privileges()).containsExactly("SELECT", "INSERT");
        assertThat(grant.objectKind()).isEqualTo("TABLE");
        assertThat(grant.object().names).containsExactly("memory", "default", "t");
        assertThat(grant.granteeKind()).isEqualTo("USER");
        assertThat(grant.grantOption()).isTrue();
        var all = parse("grant all privileges on catalog tpch to role public", io.ontul.engine.sql.tree.SqlGrantPrivileges.class);
        assertThat(all.privileges()).containsExactly(io.ontul.engine.sql.tree.SqlGrantPrivileges.ALL);
        assertThat(all.granteeKind()).isEqualTo("ROLE");
        var revoke = parse("REVOKE GRANT OPTION FOR CREATE, DROP ON SCHEMA memory.default FROM ROLE analysts", io.ontul.engine.sql.tree.SqlGrantPrivileges.class);
        assertThat(revoke.isRevoke()).isTrue();
        assertThat(revoke.grantOption()).isTrue();
        assertThat(revoke.privileges()).containsExactly("CREATE", "DROP");
        assertThat(unparse(revoke)).isEqualTo("REVOKE GRANT OPTION FOR CREATE, DROP ON SCHEMA \"memory\".\"default\" FROM ROLE \"analysts\"");

        var roles = parse("GRANT analysts, auditors TO USER ann", io.ontul.engine.sql.tree.SqlGrantRoles.class);
        assertThat(roles.roles()).extracting(org.apache.calcite.sql.SqlIdentifier::getSimple).containsExactly("analysts", "auditors");
        assertThat(parse("REVOKE analysts FROM USER ann", io.ontul.engine.sql.tree.SqlGrantRoles.class).isRevoke()).isTrue();

        var show = parse("SHOW GRANTS ON TABLE t FOR USER bob", io.ontul.engine.sql.tree.SqlShowGrants.class);
        assertThat(show.objectKind()).contains("TABLE");
        assertThat(show.grantee().orElseThrow().getSimple()).isEqualTo("bob");
        assertThat(parse("SHOW GRANTS", io.ontul.engine.sql.tree.SqlShowGrants.class).object()).isEmpty();
        assertThat(parse("SHOW ROLES", io.ontul.engine.sql.tree.SqlShowRoles.class).isCurrent()).isFalse();
        assertThat(parse("show current roles", io.ontul.engine.sql.tree.SqlShowRoles.class).isCurrent()).isTrue();

        var filter = parse("CREATE ROW FILTER eu ON TABLE memory.default.t FOR ROLE analysts USING (region = 'EU' AND amount > 0)", io.ontul.engine.sql.tree.SqlCreatePolicy.class);
        assertThat(filter.kind()).isEqualTo(io.ontul.engine.sql.tree.SqlCreatePolicy.ROW_FILTER);
        assertThat(filter.column()).isEmpty();
        assertThat(filter.expression().toString()).isEqualTo("`region` = 'EU' AND `amount` > 0");
        var mask = parse("create column mask m on table t (salary) for user bob using (case when name = current_user then salary end)", io.ontul.engine.sql.tree.SqlCreatePolicy.class);
        assertThat(mask.kind()).isEqualTo(io.ontul.engine.sql.tree.SqlCreatePolicy.COLUMN_MASK);
        assertThat(mask.column().orElseThrow().getSimple()).isEqualTo("salary");
        assertThat(parse("DROP COLUMN MASK IF EXISTS m ON TABLE t", io.ontul.engine.sql.tree.SqlDropPolicy.class).isIfExists()).isTrue();
        assertThat(parse("SHOW POLICIES ON TABLE memory.default.t", io.ontul.engine.sql.tree.SqlShowPolicies.class).table().orElseThrow().names)
                .containsExactly("memory", "default", "t");

        assertThatThrownBy(() -> OntulParser.parse("GRANT SELEKT ON TABLE t TO USER bob"))
                .isInstanceOfSatisfying(OntulException.class, exception -> assertThat(exception.code()).isEqualTo(ErrorCode.SYNTAX_ERROR))
                .hasMessageStartingWith("line 1:14: ");
        assertThatThrownBy(() -> OntulParser.parse("GRANT SELECT ON VIEW t TO USER bob"))
                .isInstanceOfSatisfying(OntulException.class, exception -> assertThat(exception.code()).isEqualTo(ErrorCode.SYNTAX_ERROR))
                .hasMessageStartingWith("line 1:17: ");
    }

    private static void assertSyntaxError(String sql, String message)
    {
        assertThatThrownBy(() -> OntulParser.parse(sql))
                .isInstanceOfSatisfying(OntulException.class, exception -> assertThat(exception.code()).isEqualTo(ErrorCode.SYNTAX_ERROR))
                .hasMessage(message);
    }

    private static SqlTypeName typeName(SqlDataTypeSpec type)
    {
        return SqlTypeName.get(type.getTypeName().getSimple());
    }

    private static String unparse(SqlNode node)
    {
        return node.toSqlString(CalciteSqlDialect.DEFAULT).getSql().replace('\n', ' ');
    }
}
