package io.ontul.engine.sql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.junit.jupiter.api.Test;

import io.ontul.engine.sql.tree.SqlAlterStreamingJob;
import io.ontul.engine.sql.tree.SqlCreateStreamingJob;
import io.ontul.engine.sql.tree.SqlDropStreamingJob;
import io.ontul.engine.sql.tree.SqlProperties;
import io.ontul.engine.sql.tree.SqlShowStreamingJobs;
import io.ontul.engine.sql.tree.SqlStreamingJobCommand;
import io.ontul.spi.OntulException;

class TestStreamingJobParsing
{
    @Test
    void createStreamingJob()
    {
        SqlCreateStreamingJob create = parse("""
                CREATE STREAMING JOB IF NOT EXISTS clean_events
                WITH ('checkpoint.interval' = '5s', 'restart.max-attempts' = '2')
                AS INSERT INTO iceberg.lake.events SELECT event_id, amount * 2 FROM kafka."default".events WHERE amount > 100""", SqlCreateStreamingJob.class);
        assertThat(create.name().getSimple()).isEqualTo("clean_events");
        assertThat(create.ifNotExists()).isTrue();
        assertThat(SqlProperties.text(create.options())).isEqualTo(Map.of("checkpoint.interval", "5s", "restart.max-attempts", "2"));
        assertThat(((SqlIdentifier) create.insert().getTargetTable()).names).containsExactly("iceberg", "lake", "events");
        assertThat(create.insert().getSource()).isInstanceOf(SqlSelect.class);

        SqlCreateStreamingJob plain = parse("create streaming job j as insert into t select * from s", SqlCreateStreamingJob.class);
        assertThat(plain.ifNotExists()).isFalse();
        assertThat(plain.options()).isEmpty();
    }

    @Test
    void createStreamingJobNeedsInsert()
    {
        assertThatThrownBy(() -> OntulParser.parse("CREATE STREAMING JOB j AS SELECT * FROM s"))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("line 1:27");
    }

    @Test
    void otherStatements()
    {
        assertThat(parse("SHOW STREAMING JOBS", SqlShowStreamingJobs.class)).isNotNull();
        assertCommand("DESCRIBE STREAMING JOB j", SqlStreamingJobCommand.Action.DESCRIBE);
        assertCommand("stop streaming job j", SqlStreamingJobCommand.Action.STOP);
        assertCommand("START STREAMING JOB j", SqlStreamingJobCommand.Action.START);
        SqlDropStreamingJob drop = parse("DROP STREAMING JOB IF EXISTS j", SqlDropStreamingJob.class);
        assertThat(drop.ifExists()).isTrue();
        assertThat(drop.name().getSimple()).isEqualTo("j");
        assertThat(parse("DROP STREAMING JOB j", SqlDropStreamingJob.class).ifExists()).isFalse();
        SqlAlterStreamingJob alter = parse("ALTER STREAMING JOB j SET ('parallelism' = '3', 'checkpoint.interval' = '1s')", SqlAlterStreamingJob.class);
        assertThat(alter.name().getSimple()).isEqualTo("j");
        assertThat(SqlProperties.text(alter.options())).isEqualTo(Map.of("parallelism", "3", "checkpoint.interval", "1s"));
        assertThat(OntulParser.parse("ALTER USER ann PASSWORD 'x'")).isNotInstanceOf(SqlAlterStreamingJob.class);
        assertThatThrownBy(() -> OntulParser.parse("ALTER STREAMING JOB j SET parallelism = 3"))
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("line 1:27");
    }

    @Test
    void newWordsStayUsableAsNames()
    {
        SqlSelect select = parse("SELECT streaming, job, jobs, stop FROM t", SqlSelect.class);
        assertThat(select.getSelectList()).hasSize(4);
        assertThat(OntulParser.parse("DESCRIBE t")).isNotInstanceOf(SqlStreamingJobCommand.class);
    }

    private static void assertCommand(String sql, SqlStreamingJobCommand.Action action)
    {
        SqlStreamingJobCommand command = parse(sql, SqlStreamingJobCommand.class);
        assertThat(command.action()).isEqualTo(action);
        assertThat(command.name().getSimple()).isEqualTo("j");
    }

    private static <T extends SqlNode> T parse(String sql, Class<T> type)
    {
        SqlNode node = OntulParser.parse(sql);
        assertThat(node).isInstanceOf(type);
        return type.cast(node);
    }
}
