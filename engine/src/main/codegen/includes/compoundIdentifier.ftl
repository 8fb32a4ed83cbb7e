<#--
  Names. Replaces the compound identifier productions of Calcite's template
  (includeCompoundIdentifier: false in config.fmpp) so that the reserved word DEFAULT can be a
  part of a qualified name, as Trino users write it: memory.default.t, SHOW TABLES FROM
  memory.default. DEFAULT stays a keyword everywhere else (INSERT ... VALUES (DEFAULT)).
-->

/**
 * Parses one part of a qualified name: an identifier, a non-reserved keyword, or DEFAULT.
 */
void AddNamePart(List<String> names, List<SqlParserPos> positions) :
{
}
{
    AddIdentifierSegment(names, positions)
|
    <DEFAULT_> {
        names.add(unquotedIdentifier());
        positions.add(getPos());
    }
}

/**
 * Parses a possibly qualified name of a catalog, schema, table or session property, any part of
 * which may be DEFAULT. Used by Ontul's own statements.
 */
SqlIdentifier QualifiedName() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
}
{
    AddNamePart(names, positions)
    (
        <DOT> AddNamePart(names, positions)
    )*
    {
        return new SqlIdentifier(names, null, SqlParserPos.sum(positions), positions);
    }
}

/**
 * Parses an unqualified name (a catalog, say), which may be DEFAULT.
 */
SqlIdentifier SimpleName() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
}
{
    AddNamePart(names, positions) {
        return new SqlIdentifier(names.get(0), positions.get(0));
    }
}

/**
 * Parses a compound identifier in an expression, such as {@code t.c}, {@code memory.default.t.c}
 * or {@code t.*}. The first part cannot be DEFAULT: there DEFAULT is the keyword.
 */
SqlIdentifier CompoundIdentifier() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
    boolean star = false;
}
{
    AddIdentifierSegment(names, positions)
    (
        LOOKAHEAD(2)
        <DOT> AddNamePart(names, positions)
    )*
    [
        LOOKAHEAD(2)
        <DOT> <STAR> {
            star = true;
            names.add("");
            positions.add(getPos());
        }
    ]
    {
        final SqlParserPos pos = SqlParserPos.sum(positions);
        if (star) {
            return SqlIdentifier.star(names, pos, positions);
        }
        return new SqlIdentifier(names, null, pos, positions);
    }
}

/**
 * Parses a table name where a table reference is expected (FROM, INSERT INTO, UPDATE ...).
 * Any part may be DEFAULT.
 */
SqlIdentifier CompoundTableIdentifier() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
}
{
    AddTableNamePart(names, positions)
    (
        LOOKAHEAD(2)
        <DOT> AddTableNamePart(names, positions)
    )*
    {
        return new SqlIdentifier(names, null, SqlParserPos.sum(positions), positions);
    }
}

void AddTableNamePart(List<String> names, List<SqlParserPos> positions) :
{
}
{
    AddTableIdentifierSegment(names, positions)
|
    <DEFAULT_> {
        names.add(unquotedIdentifier());
        positions.add(getPos());
    }
}

/**
 * Parses the comma-separated column list of INSERT, where each column may carry a type
 * (Calcite's EXTEND syntax).
 */
void AddCompoundIdentifierTypes(List<SqlNode> list, List<SqlNode> extendList) :
{
}
{
    AddCompoundIdentifierType(list, extendList)
    (
        <COMMA> AddCompoundIdentifierType(list, extendList)
    )*
}

/**
 * Parses a parenthesized column list of INSERT; returns the columns and the EXTEND list.
 */
Pair<SqlNodeList, SqlNodeList> ParenthesizedCompoundIdentifierList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
    final List<SqlNode> extendList = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    AddCompoundIdentifierTypes(list, extendList)
    <RPAREN> {
        final SqlParserPos pos = s.end(this);
        return Pair.of(new SqlNodeList(list, pos), new SqlNodeList(extendList, pos));
    }
}
