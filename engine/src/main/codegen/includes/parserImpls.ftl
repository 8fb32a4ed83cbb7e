<#--
  Ontul's statements. Each production is listed in config.fmpp; the node classes live in
  io.ontul.engine.sql.tree.
-->

/**
 * SHOW CATALOGS [LIKE 'pattern']
 */
SqlNode SqlShowCatalogs() :
{
    final Span s;
    final SqlCharStringLiteral like;
}
{
    <SHOW> { s = span(); } <CATALOGS>
    like = LikePatternOpt()
    {
        return new SqlShowCatalogs(s.end(this), like);
    }
}

/**
 * SHOW SCHEMAS [FROM | IN catalog] [LIKE 'pattern']
 */
SqlNode SqlShowSchemas() :
{
    final Span s;
    SqlIdentifier catalog = null;
    final SqlCharStringLiteral like;
}
{
    <SHOW> { s = span(); } <SCHEMAS>
    [
        ( <FROM> | <IN> ) catalog = SimpleName()
    ]
    like = LikePatternOpt()
    {
        return new SqlShowSchemas(s.end(this), catalog, like);
    }
}

/**
 * SHOW TABLES [FROM | IN [catalog.]schema] [LIKE 'pattern']
 */
SqlNode SqlShowTables() :
{
    final Span s;
    SqlIdentifier schema = null;
    final SqlCharStringLiteral like;
}
{
    <SHOW> { s = span(); } <TABLES>
    [
        ( <FROM> | <IN> ) schema = QualifiedName()
    ]
    like = LikePatternOpt()
    {
        return new SqlShowTables(s.end(this), schema, like);
    }
}

/**
 * SHOW COLUMNS FROM | IN table
 */
SqlNode SqlShowColumns() :
{
    final Span s;
    final SqlIdentifier table;
}
{
    <SHOW> { s = span(); } <COLUMNS>
    ( <FROM> | <IN> ) table = QualifiedName()
    {
        return new SqlShowColumns(s.end(this), table);
    }
}

/**
 * SHOW CREATE VIEW view
 */
SqlNode SqlShowCreateView() :
{
    final Span s;
    final SqlIdentifier view;
}
{
    <SHOW> { s = span(); } <CREATE> <VIEW> view = QualifiedName()
    {
        return new SqlShowCreateView(s.end(this), view);
    }
}

/**
 * MERGE INTO target [[AS] alias] USING source ON condition
 *   WHEN MATCHED [AND condition] THEN UPDATE SET column = value, ... | DELETE
 *   WHEN NOT MATCHED [AND condition] THEN INSERT [(column, ...)] VALUES (value, ...)
 * (clauses in any number and order; the first whose condition holds applies to a row)
 */
SqlNode SqlMergeStatement() :
{
    final Span s;
    final SqlIdentifier target;
    SqlIdentifier alias = null;
    final SqlNode source;
    final SqlNode condition;
    final List<SqlMergeStatement.WhenClause> clauses = new ArrayList<SqlMergeStatement.WhenClause>();
    SqlMergeStatement.WhenClause clause;
}
{
    <MERGE> { s = span(); } <INTO> target = QualifiedName()
    [ [ <AS> ] alias = SimpleIdentifier() ]
    <USING> source = TableRef()
    <ON> condition = Expression(ExprContext.ACCEPT_SUB_QUERY)
    (
        clause = MergeWhenClause() { clauses.add(clause); }
    )+
    {
        return new SqlMergeStatement(s.end(this), target, alias, source, condition, clauses);
    }
}

SqlMergeStatement.WhenClause MergeWhenClause() :
{
    final Span s;
    boolean matched = true;
    SqlNode condition = null;
    SqlMergeStatement.Action action;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final List<SqlNode> values = new ArrayList<SqlNode>();
    SqlNodeList insertColumns = null;
    SqlIdentifier column;
    SqlNode value;
}
{
    <WHEN> { s = span(); } [ <NOT> { matched = false; } ] <MATCHED>
    [ <AND> condition = Expression(ExprContext.ACCEPT_SUB_QUERY) ]
    <THEN>
    (
        <UPDATE> { action = SqlMergeStatement.Action.UPDATE; } <SET>
        column = SimpleIdentifier() <EQ> value = Expression(ExprContext.ACCEPT_SUB_QUERY) { columns.add(column); values.add(value); }
        (
            <COMMA> column = SimpleIdentifier() <EQ> value = Expression(ExprContext.ACCEPT_SUB_QUERY) { columns.add(column); values.add(value); }
        )*
    |
        <DELETE> { action = SqlMergeStatement.Action.DELETE; }
    |
        <INSERT> { action = SqlMergeStatement.Action.INSERT; }
        [ insertColumns = ParenthesizedSimpleIdentifierList() { columns.addAll(insertColumns.getList()); } ]
        <VALUES> <LPAREN>
        value = Expression(ExprContext.ACCEPT_SUB_QUERY) { values.add(value); }
        (
            <COMMA> value = Expression(ExprContext.ACCEPT_SUB_QUERY) { values.add(value); }
        )*
        <RPAREN>
    )
    {
        return new SqlMergeStatement.WhenClause(s.end(this), matched, java.util.Optional.ofNullable(condition), action,
            new SqlNodeList(columns, s.end(this)), new SqlNodeList(values, s.end(this)));
    }
}

/**
 * Parses an optional LIKE 'pattern' of a SHOW statement.
 */
SqlCharStringLiteral LikePatternOpt() :
{
}
{
    <LIKE> <QUOTED_STRING> {
        return SqlLiteral.createCharString(SqlParserUtil.parseString(token.image), getPos());
    }
|
    { return null; }
}

/**
 * SET SESSION [catalog.]name = string | number | TRUE | FALSE
 */
SqlNode SqlSetSession() :
{
    final Span s;
    final SqlIdentifier name;
    final SqlNode value;
}
{
    <SET> { s = span(); } <SESSION>
    name = QualifiedName()
    <EQ>
    (
        value = StringLiteral()
    |
        value = NumericLiteral()
    |
        <TRUE> { value = SqlLiteral.createBoolean(true, getPos()); }
    |
        <FALSE> { value = SqlLiteral.createBoolean(false, getPos()); }
    )
    {
        return new SqlSetSession(s.end(this), name, SqlLiteral.unchain(value));
    }
}

/**
 * SET TIME ZONE 'zone' | LOCAL | DEFAULT (PostgreSQL's and Trino's): the session property
 * time_zone; LOCAL and DEFAULT unset it (UTC).
 */
SqlNode SqlSetTimeZone() :
{
    final Span s;
    final SqlNode value;
}
{
    <SET> { s = span(); } <TIME> <ZONE>
    (
        value = StringLiteral()
        {
            return new SqlSetSession(s.end(this), new SqlIdentifier("time_zone", s.pos()), (SqlLiteral) SqlLiteral.unchain(value));
        }
    |
        ( <LOCAL> | <DEFAULT_> )
        {
            return new SqlResetSession(s.end(this), new SqlIdentifier("time_zone", s.pos()));
        }
    )
}

/**
 * RESET SESSION [catalog.]name
 */
SqlNode SqlResetSession() :
{
    final Span s;
    final SqlIdentifier name;
}
{
    <RESET> { s = span(); } <SESSION>
    name = QualifiedName()
    {
        return new SqlResetSession(s.end(this), name);
    }
}

/**
 * EXPLAIN [ANALYZE] statement, as in Trino. Calcite's EXPLAIN PLAN [...] FOR statement is left
 * to Calcite's production: the semantic lookahead below makes this production decline it.
 */
SqlNode SqlExplainStatement() :
{
    final Span s;
    boolean analyze = false;
    final SqlNode statement;
}
{
    <EXPLAIN> { s = span(); }
    (
        <ANALYZE> { analyze = true; }
    |
        LOOKAHEAD({ getToken(1).kind != PLAN }) { }
    )
    statement = SqlQueryOrDml()
    {
        return new SqlExplainStatement(s.end(this), statement, analyze);
    }
}

/**
 * USE [catalog.]schema
 */
SqlNode SqlUse() :
{
    final Span s;
    final SqlIdentifier name;
}
{
    <USE> { s = span(); }
    name = QualifiedName()
    {
        return new SqlUse(s.end(this), name);
    }
}

boolean IfNotExistsOpt() :
{
}
{
    LOOKAHEAD(3) <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

boolean IfExistsOpt() :
{
}
{
    LOOKAHEAD(2) <IF> <EXISTS> { return true; }
|
    { return false; }
}

/**
 * CREATE SCHEMA [IF NOT EXISTS] [catalog.]schema
 */
SqlCreate SqlCreateSchema(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
    SqlNodeList properties = null;
}
{
    <SCHEMA> ifNotExists = IfNotExistsOpt() name = QualifiedName()
    [ properties = PropertyList() ]
    {
        return new SqlCreateSchemaWithProperties(s.end(this), ifNotExists, name, properties);
    }
}

/**
 * CREATE TABLE [IF NOT EXISTS] name (column type [NOT NULL | NULL], ...) [WITH (...)]
 * CREATE TABLE [IF NOT EXISTS] name [WITH (...)] AS query
 */
SqlCreate SqlCreateTable(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
    SqlNodeList columns = null;
    SqlNodeList properties = null;
    SqlNode query = null;
}
{
    <TABLE> ifNotExists = IfNotExistsOpt() name = QualifiedName()
    (
        columns = TableColumns()
        [ properties = PropertyList() ]
    |
        [ properties = PropertyList() ]
        <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    )
    {
        return new SqlCreateTableWithProperties(s.end(this), ifNotExists, name, columns, properties, query);
    }
}

/**
 * CREATE [OR REPLACE] VIEW name [(column, ...)] AS query
 */
SqlCreate SqlCreateView(Span s, boolean replace) :
{
    final SqlIdentifier name;
    SqlNodeList columns = null;
    final SqlNode query;
}
{
    <VIEW> name = QualifiedName()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return SqlDdlNodes.createView(s.end(this), replace, name, columns, query);
    }
}

/**
 * WITH (name = value, ...): a name is an identifier (a.b.c) or a string literal; a value is a
 * literal, a negative number or ARRAY[...] (checked when the statement runs).
 */
SqlNodeList PropertyList() :
{
    final Span s;
    final List<SqlNode> properties = new ArrayList<SqlNode>();
}
{
    <WITH> { s = span(); } <LPAREN>
    AddProperty(properties)
    (
        <COMMA> AddProperty(properties)
    )*
    <RPAREN> {
        return new SqlNodeList(properties, s.end(this));
    }
}

void AddProperty(List<SqlNode> properties) :
{
    final SqlNode key;
    final SqlNode value;
}
{
    (
        key = CompoundIdentifier()
    |
        key = StringLiteral()
    )
    <EQ> value = Expression(ExprContext.ACCEPT_NON_QUERY)
    {
        properties.add(new SqlProperty(key.getParserPosition(), key, value));
    }
}

/**
 * CREATE CATALOG [IF NOT EXISTS] name USING connector [WITH (...)]
 */
SqlCreate SqlCreateCatalog(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
    final SqlIdentifier connector;
    SqlNodeList properties = null;
}
{
    <CATALOG> ifNotExists = IfNotExistsOpt() name = SimpleIdentifier()
    <USING> connector = SimpleIdentifier()
    [ properties = PropertyList() ]
    {
        return new SqlCreateCatalog(s.end(this), ifNotExists, name, connector, properties);
    }
}

/**
 * DROP CATALOG [IF EXISTS] name
 */
SqlDrop SqlDropCatalog(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <CATALOG> ifExists = IfExistsOpt() name = SimpleIdentifier()
    {
        return new SqlDropCatalog(s.end(this), ifExists, name);
    }
}

/**
 * ( column, ... ): columns (name type [NOT NULL | NULL] [DEFAULT expression] [PRIMARY KEY | UNIQUE])
 * and table constraints ([CONSTRAINT name] PRIMARY KEY (columns) | UNIQUE (columns)), in any order
 */
SqlNodeList TableColumns() :
{
    final Span s;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    TableElement(columns)
    (
        <COMMA> TableElement(columns)
    )*
    <RPAREN> {
        return new SqlNodeList(columns, s.end(this));
    }
}

void TableElement(List<SqlNode> columns) :
{
    Span s;
    SqlIdentifier name = null;
    final SqlNodeList keyColumns;
}
{
    (
        [ <CONSTRAINT> { s = span(); } name = SimpleIdentifier() ]
        (
            <PRIMARY> { s = span(); } <KEY> keyColumns = ParenthesizedSimpleIdentifierList()
            { columns.add(SqlDdlNodes.primary(s.end(this), name, keyColumns)); }
        |
            <UNIQUE> { s = span(); } keyColumns = ParenthesizedSimpleIdentifierList()
            { columns.add(SqlDdlNodes.unique(s.end(this), name, keyColumns)); }
        )
    |
        AddTableColumn(columns)
    )
}

void AddTableColumn(List<SqlNode> columns) :
{
    final SqlIdentifier name;
    final SqlDataTypeSpec type;
    boolean nullable = true;
    SqlNode defaultValue = null;
    final List<SqlNode> constraints = new ArrayList<SqlNode>();
    Span s;
}
{
    name = SimpleIdentifier()
    type = DataType()
    (
        <NOT> <NULL> { nullable = false; }
    |
        <NULL>
    |
        <DEFAULT_> defaultValue = Expression(ExprContext.ACCEPT_SUB_QUERY)
    |
        <PRIMARY> { s = span(); } <KEY> {
            nullable = false;
            constraints.add(SqlDdlNodes.primary(s.end(this), null, new SqlNodeList(java.util.List.<SqlNode>of(name), name.getParserPosition())));
        }
    |
        <UNIQUE> { s = span(); } {
            constraints.add(SqlDdlNodes.unique(s.end(this), null, new SqlNodeList(java.util.List.<SqlNode>of(name), name.getParserPosition())));
        }
    )*
    {
        columns.add(
            SqlDdlNodes.column(
                Span.of(name).end(this),
                name,
                type.withNullable(nullable),
                defaultValue,
                defaultValue != null ? ColumnStrategy.DEFAULT : nullable ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE));
        columns.addAll(constraints);
    }
}

/**
 * CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column, ...)
 */
SqlCreate SqlCreateIndex(Span s, boolean replace) :
{
    boolean unique = false;
    final boolean ifNotExists;
    final SqlIdentifier name;
    final SqlIdentifier table;
    final SqlNodeList columns;
}
{
    [ <UNIQUE> { unique = true; } ]
    <INDEX> ifNotExists = IfNotExistsOpt() name = SimpleIdentifier()
    <ON> table = QualifiedName()
    columns = ParenthesizedSimpleIdentifierList()
    {
        return new SqlCreateIndex(s.end(this), unique, ifNotExists, name, table, columns);
    }
}

/**
 * DROP INDEX [IF EXISTS] name ON table
 */
SqlDrop SqlDropIndex(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
    final SqlIdentifier table;
}
{
    <INDEX> ifExists = IfExistsOpt() name = SimpleIdentifier()
    <ON> table = QualifiedName()
    {
        return new SqlDropIndex(s.end(this), ifExists, name, table);
    }
}

SqlDrop SqlDropSchema(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <SCHEMA> ifExists = IfExistsOpt() name = QualifiedName()
    {
        return SqlDdlNodes.dropSchema(s.end(this), false, ifExists, name);
    }
}

/**
 * DROP TABLE [IF EXISTS] name
 */
SqlDrop SqlDropTable(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <TABLE> ifExists = IfExistsOpt() name = QualifiedName()
    {
        return SqlDdlNodes.dropTable(s.end(this), ifExists, name);
    }
}

/**
 * DROP VIEW [IF EXISTS] name
 */
SqlDrop SqlDropView(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <VIEW> ifExists = IfExistsOpt() name = QualifiedName()
    {
        return SqlDdlNodes.dropView(s.end(this), ifExists, name);
    }
}

/**
 * CREATE [OR REPLACE] USER [IF NOT EXISTS] name PASSWORD 'secret'
 */
SqlCreate SqlCreateUser(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
    final String password;
}
{
    <USER> ifNotExists = IfNotExistsOpt() name = SimpleIdentifier()
    password = PasswordClause()
    {
        return new SqlCreateUser(s.end(this), replace, ifNotExists, name, password);
    }
}

/**
 * ALTER USER name PASSWORD 'secret'
 */
SqlNode SqlAlterUser() :
{
    final Span s;
    final SqlIdentifier name;
    final String password;
}
{
    <ALTER> { s = span(); } <USER> name = SimpleIdentifier()
    password = PasswordClause()
    {
        return new SqlAlterUser(s.end(this), name, password);
    }
}

/**
 * Parses PASSWORD 'secret' and returns the password without its quotes. Only a plain string
 * literal is accepted, so that SqlRedaction can find every password in a statement's text.
 */
String PasswordClause() :
{
}
{
    <PASSWORD> <QUOTED_STRING> {
        return SqlParserUtil.parseString(token.image);
    }
}

/**
 * DROP USER [IF EXISTS] name
 */
SqlDrop SqlDropUser(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <USER> ifExists = IfExistsOpt() name = SimpleIdentifier()
    {
        return new SqlDropUser(s.end(this), ifExists, name);
    }
}

/**
 * SHOW USERS [LIKE 'pattern']
 */
SqlNode SqlShowUsers() :
{
    final Span s;
    final SqlCharStringLiteral like;
}
{
    <SHOW> { s = span(); } <USERS>
    like = LikePatternOpt()
    {
        return new SqlShowUsers(s.end(this), like);
    }
}

/**
 * CREATE STREAMING JOB [IF NOT EXISTS] name [WITH (...)] AS INSERT INTO table query
 */
SqlCreate SqlCreateStreamingJob(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
    SqlNodeList jobOptions = null;
    final SqlNode insert;
}
{
    <STREAMING> <JOB> ifNotExists = IfNotExistsOpt() name = SimpleIdentifier()
    [ jobOptions = PropertyList() ]
    <AS> insert = SqlInsert()
    {
        if (!(insert instanceof SqlInsert)) {
            throw SqlUtil.newContextException(insert.getParserPosition(),
                RESOURCE.illegalQueryExpression());
        }
        return new SqlCreateStreamingJob(s.end(this), ifNotExists, name, jobOptions, (SqlInsert) insert);
    }
}

/**
 * DROP STREAMING JOB [IF EXISTS] name
 */
SqlDrop SqlDropStreamingJob(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <STREAMING> <JOB> ifExists = IfExistsOpt() name = SimpleIdentifier()
    {
        return new SqlDropStreamingJob(s.end(this), ifExists, name);
    }
}

/**
 * SHOW STREAMING JOBS
 */
SqlNode SqlShowStreamingJobs() :
{
    final Span s;
}
{
    <SHOW> { s = span(); } <STREAMING> <JOBS>
    {
        return new SqlShowStreamingJobs(s.end(this));
    }
}

/**
 * DESCRIBE STREAMING JOB name
 */
SqlNode SqlDescribeStreamingJob() :
{
    final Span s;
    final SqlIdentifier name;
}
{
    <DESCRIBE> { s = span(); } <STREAMING> <JOB> name = SimpleIdentifier()
    {
        return new SqlStreamingJobCommand(s.end(this), SqlStreamingJobCommand.Action.DESCRIBE, name);
    }
}

/**
 * STOP STREAMING JOB name
 */
SqlNode SqlStopStreamingJob() :
{
    final Span s;
    final SqlIdentifier name;
}
{
    <STOP> { s = span(); } <STREAMING> <JOB> name = SimpleIdentifier()
    {
        return new SqlStreamingJobCommand(s.end(this), SqlStreamingJobCommand.Action.STOP, name);
    }
}

/**
 * ALTER STREAMING JOB name SET ('option' = 'value', ...)
 */
SqlNode SqlAlterStreamingJob() :
{
    final Span s;
    final SqlIdentifier name;
    final Span set;
    final List<SqlNode> properties = new ArrayList<SqlNode>();
}
{
    <ALTER> { s = span(); } <STREAMING> <JOB> name = SimpleIdentifier()
    <SET> { set = span(); } <LPAREN>
    AddProperty(properties)
    (
        <COMMA> AddProperty(properties)
    )*
    <RPAREN>
    {
        return new SqlAlterStreamingJob(s.end(this), name, new SqlNodeList(properties, set.end(this)));
    }
}

/**
 * START STREAMING JOB name
 */
SqlNode SqlStartStreamingJob() :
{
    final Span s;
    final SqlIdentifier name;
}
{
    <START> { s = span(); } <STREAMING> <JOB> name = SimpleIdentifier()
    {
        return new SqlStreamingJobCommand(s.end(this), SqlStreamingJobCommand.Action.START, name);
    }
}

/**
 * CREATE ROLE [IF NOT EXISTS] name
 */
SqlCreate SqlCreateRole(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
}
{
    <ROLE> ifNotExists = IfNotExistsOpt() name = SimpleIdentifier()
    {
        return new SqlCreateRole(s.end(this), replace, ifNotExists, name);
    }
}

/**
 * DROP ROLE [IF EXISTS] name
 */
SqlDrop SqlDropRole(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <ROLE> ifExists = IfExistsOpt() name = SimpleIdentifier()
    {
        return new SqlDropRole(s.end(this), ifExists, name);
    }
}

/**
 * GRANT privilege [, ...] | ALL PRIVILEGES ON CATALOG c | SCHEMA c.s | TABLE c.s.t
 *     TO USER u | ROLE r [WITH GRANT OPTION]
 * GRANT role [, ...] TO USER u
 */
SqlNode SqlGrant() :
{
    final Span s;
    final List<String> privileges;
    final String objectKind;
    final SqlIdentifier object;
    final String granteeKind;
    final SqlIdentifier grantee;
    boolean grantOption = false;
    final List<SqlIdentifier> roles;
}
{
    <GRANT> { s = span(); }
    (
        privileges = PrivilegeList() <ON> objectKind = SecurableKind() object = QualifiedName()
        <TO> granteeKind = GranteeKind() grantee = SimpleIdentifier()
        [ <WITH> <GRANT> <OPTION> { grantOption = true; } ]
        {
            return new SqlGrantPrivileges(s.end(this), false, privileges, objectKind, object, granteeKind, grantee, grantOption);
        }
    |
        roles = RoleList() <TO> <USER> grantee = SimpleIdentifier()
        {
            return new SqlGrantRoles(s.end(this), false, roles, grantee);
        }
    )
}

/**
 * REVOKE [GRANT OPTION FOR] privilege [, ...] | ALL PRIVILEGES ON CATALOG c | SCHEMA c.s | TABLE c.s.t
 *     FROM USER u | ROLE r
 * REVOKE role [, ...] FROM USER u
 */
SqlNode SqlRevoke() :
{
    final Span s;
    final List<String> privileges;
    final String objectKind;
    final SqlIdentifier object;
    final String granteeKind;
    final SqlIdentifier grantee;
    boolean grantOption = false;
    final List<SqlIdentifier> roles;
}
{
    <REVOKE> { s = span(); }
    (
        [ <GRANT> <OPTION> <FOR> { grantOption = true; } ]
        privileges = PrivilegeList() <ON> objectKind = SecurableKind() object = QualifiedName()
        <FROM> granteeKind = GranteeKind() grantee = SimpleIdentifier()
        {
            return new SqlGrantPrivileges(s.end(this), true, privileges, objectKind, object, granteeKind, grantee, grantOption);
        }
    |
        roles = RoleList() <FROM> <USER> grantee = SimpleIdentifier()
        {
            return new SqlGrantRoles(s.end(this), true, roles, grantee);
        }
    )
}

/** ALL [PRIVILEGES] or SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, comma-separated. */
List<String> PrivilegeList() :
{
    final List<String> privileges = new ArrayList<String>();
    String privilege;
}
{
    (
        <ALL> [ <PRIVILEGES> ] { privileges.add(SqlGrantPrivileges.ALL); }
    |
        privilege = Privilege() { privileges.add(privilege); }
        ( <COMMA> privilege = Privilege() { privileges.add(privilege); } )*
    )
    {
        return privileges;
    }
}

String Privilege() :
{
}
{
    <SELECT> { return "SELECT"; }
|   <INSERT> { return "INSERT"; }
|   <UPDATE> { return "UPDATE"; }
|   <DELETE> { return "DELETE"; }
|   <CREATE> { return "CREATE"; }
|   <DROP> { return "DROP"; }
}

String SecurableKind() :
{
}
{
    <CATALOG> { return "CATALOG"; }
|   <SCHEMA> { return "SCHEMA"; }
|   <TABLE> { return "TABLE"; }
}

String GranteeKind() :
{
}
{
    <USER> { return "USER"; }
|   <ROLE> { return "ROLE"; }
}

List<SqlIdentifier> RoleList() :
{
    final List<SqlIdentifier> roles = new ArrayList<SqlIdentifier>();
    SqlIdentifier role;
}
{
    role = SimpleIdentifier() { roles.add(role); }
    ( <COMMA> role = SimpleIdentifier() { roles.add(role); } )*
    {
        return roles;
    }
}

/**
 * SHOW GRANTS [ON CATALOG c | SCHEMA c.s | TABLE c.s.t] [FOR USER u | ROLE r]
 */
SqlNode SqlShowGrants() :
{
    final Span s;
    String objectKind = null;
    SqlIdentifier object = null;
    String granteeKind = null;
    SqlIdentifier grantee = null;
}
{
    <SHOW> { s = span(); } <GRANTS>
    [ <ON> objectKind = SecurableKind() object = QualifiedName() ]
    [ <FOR> granteeKind = GranteeKind() grantee = SimpleIdentifier() ]
    {
        return new SqlShowGrants(s.end(this), objectKind, object, granteeKind, grantee);
    }
}

/**
 * SHOW ROLES
 */
SqlNode SqlShowRoles() :
{
    final Span s;
}
{
    <SHOW> { s = span(); } <ROLES>
    {
        return new SqlShowRoles(s.end(this), false);
    }
}

/**
 * SHOW CURRENT ROLES
 */
SqlNode SqlShowCurrentRoles() :
{
    final Span s;
}
{
    <SHOW> { s = span(); } <CURRENT> <ROLES>
    {
        return new SqlShowRoles(s.end(this), true);
    }
}

/**
 * CREATE ROW FILTER name ON TABLE t FOR USER u | ROLE r USING (condition)
 */
SqlCreate SqlCreateRowFilter(Span s, boolean replace) :
{
    final SqlIdentifier name;
    final SqlIdentifier table;
    final String granteeKind;
    final SqlIdentifier grantee;
    final SqlNode expression;
}
{
    <ROW> <FILTER> name = SimpleIdentifier() <ON> <TABLE> table = QualifiedName()
    <FOR> granteeKind = GranteeKind() grantee = SimpleIdentifier()
    <USING> <LPAREN> expression = Expression(ExprContext.ACCEPT_NON_QUERY) <RPAREN>
    {
        return new SqlCreatePolicy(s.end(this), SqlCreatePolicy.ROW_FILTER, name, table, null, granteeKind, grantee, expression);
    }
}

/**
 * CREATE COLUMN MASK name ON TABLE t (column) FOR USER u | ROLE r USING (expression)
 */
SqlCreate SqlCreateColumnMask(Span s, boolean replace) :
{
    final SqlIdentifier name;
    final SqlIdentifier table;
    final SqlIdentifier column;
    final String granteeKind;
    final SqlIdentifier grantee;
    final SqlNode expression;
}
{
    <COLUMN> <MASK> name = SimpleIdentifier() <ON> <TABLE> table = QualifiedName()
    <LPAREN> column = SimpleIdentifier() <RPAREN>
    <FOR> granteeKind = GranteeKind() grantee = SimpleIdentifier()
    <USING> <LPAREN> expression = Expression(ExprContext.ACCEPT_NON_QUERY) <RPAREN>
    {
        return new SqlCreatePolicy(s.end(this), SqlCreatePolicy.COLUMN_MASK, name, table, column, granteeKind, grantee, expression);
    }
}

/**
 * DROP ROW FILTER [IF EXISTS] name ON TABLE t
 */
SqlDrop SqlDropRowFilter(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
    final SqlIdentifier table;
}
{
    <ROW> <FILTER> ifExists = IfExistsOpt() name = SimpleIdentifier() <ON> <TABLE> table = QualifiedName()
    {
        return new SqlDropPolicy(s.end(this), SqlCreatePolicy.ROW_FILTER, ifExists, name, table);
    }
}

/**
 * DROP COLUMN MASK [IF EXISTS] name ON TABLE t
 */
SqlDrop SqlDropColumnMask(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
    final SqlIdentifier table;
}
{
    <COLUMN> <MASK> ifExists = IfExistsOpt() name = SimpleIdentifier() <ON> <TABLE> table = QualifiedName()
    {
        return new SqlDropPolicy(s.end(this), SqlCreatePolicy.COLUMN_MASK, ifExists, name, table);
    }
}

/**
 * SHOW POLICIES [ON TABLE t]
 */
SqlNode SqlShowPolicies() :
{
    final Span s;
    SqlIdentifier table = null;
}
{
    <SHOW> { s = span(); } <POLICIES>
    [ <ON> <TABLE> table = QualifiedName() ]
    {
        return new SqlShowPolicies(s.end(this), table);
    }
}

/**
 * x AT TIME ZONE zone (PostgreSQL's): a TIMESTAMP to the instant it is in the zone, a TIMESTAMP
 * WITH TIME ZONE to the local time there.
 */
void AtTimeZone(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlNode zone;
}
{
    <AT> <TIME> <ZONE> {
        checkNonQueryExpression(exprContext);
        s.clear().add(this);
    }
    zone = Expression3(ExprContext.ACCEPT_SUB_QUERY) {
        list.add(new SqlParserUtil.ToTreeListItem(io.ontul.engine.sql.OntulOperatorTable.AT_TIME_ZONE, s.pos()));
        list.add(zone);
    }
}

/**
 * ARRAY(element type), Trino's spelling of an array type (Calcite's is "element ARRAY", and
 * PostgreSQL's "element[]", which DataType also takes).
 */
SqlTypeNameSpec OntulArrayTypeName() :
{
    final Span s;
    final SqlDataTypeSpec element;
}
{
    <ARRAY> { s = span(); } <LPAREN> element = DataType() <RPAREN>
    {
        return new SqlCollectionTypeNameSpec(element.getTypeNameSpec(), SqlTypeName.ARRAY, s.end(this));
    }
}
