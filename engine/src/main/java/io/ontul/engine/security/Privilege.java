package io.ontul.engine.security;

/** What a grant allows on a catalog, a schema or a table, and on everything inside it. */
public enum Privilege
{
    /** Read a table's rows. */
    SELECT("SELECT from"),
    /** Add rows to a table. */
    INSERT("INSERT into"),
    UPDATE("UPDATE"),
    DELETE("DELETE from"),
    /** Create tables in a schema, or schemas in a catalog. */
    CREATE("CREATE in"),
    /** Drop a table, a schema or a catalog. */
    DROP("DROP");

    private final String phrase;

    Privilege(String phrase)
    {
        this.phrase = phrase;
    }

    /** The words before the object in a denial: "cannot SELECT from table 't'". */
    public String phrase()
    {
        return phrase;
    }
}
