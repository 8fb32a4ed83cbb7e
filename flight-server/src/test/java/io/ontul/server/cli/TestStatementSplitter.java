package io.ontul.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestStatementSplitter
{
    @Test
    void splitsAtSemicolonsAndDropsEmptyPieces()
    {
        assertThat(StatementSplitter.split("SELECT 1; SELECT 2;\n;  ")).containsExactly("SELECT 1", "SELECT 2");
        assertThat(StatementSplitter.split("SELECT 1")).containsExactly("SELECT 1");
        assertThat(StatementSplitter.split("  \n ")).isEmpty();
    }

    @Test
    void ignoresSemicolonsInLiteralsIdentifiersAndComments()
    {
        assertThat(StatementSplitter.split("SELECT 'a;b', 'it''s;' FROM \"t;x\"; SELECT 2"))
                .containsExactly("SELECT 'a;b', 'it''s;' FROM \"t;x\"", "SELECT 2");
        assertThat(StatementSplitter.split("SELECT 1 -- one; two\n; /* three; */ SELECT 3"))
                .containsExactly("SELECT 1 -- one; two", "/* three; */ SELECT 3");
    }

    @Test
    void dropsPiecesWithOnlyComments()
    {
        assertThat(StatementSplitter.split("SELECT 1;\n-- the end;\n/* really; */\n")).containsExactly("SELECT 1");
    }

    @Test
    void leavesUnterminatedLiteralToTheParser()
    {
        assertThat(StatementSplitter.split("SELECT 'abc; SELECT 2")).containsExactly("SELECT 'abc; SELECT 2");
    }
}
