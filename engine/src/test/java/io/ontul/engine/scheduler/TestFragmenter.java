package io.ontul.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

import io.ontul.engine.operator.aggregate.AggregationStep;
import io.ontul.engine.operator.join.JoinType;
import io.ontul.engine.plan.AggregateNode;
import io.ontul.engine.plan.FilterProjectNode;
import io.ontul.engine.plan.GatherNode;
import io.ontul.engine.plan.HashExchangeNode;
import io.ontul.engine.plan.JoinNode;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.plan.ScanNode;
import io.ontul.engine.plan.SortNode;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableStatistics;

/**
 * Which parts of a plan run on the workers: the splittable pipelines below exchanges that read
 * tables every node reads, without an exchange or a build-matching join on their split path.
 */
class TestFragmenter
{
    private static final RelDataType ROW = new JavaTypeFactoryImpl().builder().add("k", SqlTypeName.BIGINT).build();

    @Test
    void aScanBelowAGatherIsAFragmentAndATableOfOneProcessIsNot()
    {
        GatherNode shared = new GatherNode(filter(scan(true)));
        List<Fragment> fragments = Fragmenter.fragments(shared);
        assertThat(fragments).hasSize(1);
        assertThat(fragments.get(0).exchange()).isSameAs(shared);
        assertThat(fragments.get(0).root()).isSameAs(shared.children().get(0));
        assertThat(fragments.get(0).fingerprint()).isEqualTo("Project [k]\n  Scan test.s.t columns=[k]\n");

        assertThat(Fragmenter.fragments(new GatherNode(filter(scan(false))))).isEmpty();
        // a build side that only the coordinator can read keeps the whole join there
        assertThat(Fragmenter.fragments(new GatherNode(join(JoinType.INNER, scan(true), new GatherNode(scan(false)))))).isEmpty();
    }

    @Test
    void theLargestPipelinesAreFoundTopDownAndTheirBuildSidesStayInside()
    {
        GatherNode build = new GatherNode(scan(true));
        GatherNode root = new GatherNode(join(JoinType.INNER, scan(true), build));
        List<Fragment> fragments = Fragmenter.fragments(new SortNode(root, List.of(), 0, Long.MAX_VALUE));
        // the build side is a fragment nested in the probe's: its workers read all of it
        assertThat(fragments).extracting(Fragment::exchange).containsExactly(root, build);
        assertThat(fragments).extracting(Fragment::index).containsExactly(0, 1);
        assertThat(fragments).extracting(Fragment::parent).containsExactly(-1, 0);
        assertThat(fragments.get(0).fingerprint()).isEqualTo("HashJoin INNER on k = k\n  Scan test.s.t columns=[k]\n  Gather (parallel)\n    Scan test.s.t columns=[k]\n");

        // two inputs of a union-like parent: numbered in child order
        GatherNode left = new GatherNode(scan(true));
        GatherNode right = new GatherNode(scan(true));
        List<Fragment> both = Fragmenter.fragments(join(JoinType.INNER, left, right));
        assertThat(both).extracting(Fragment::exchange).containsExactly(left, right);
        assertThat(both).extracting(Fragment::index).containsExactly(0, 1);
        assertThat(both).allMatch(Fragment::topLevel);
    }

    @Test
    void aRepartitionBetweenWorkersOrABuildMatchingJoinOnTheSplitPath()
    {
        PlanNode partial = new AggregateNode(ROW, scan(true), new int[] {0}, new boolean[][] {{true}}, List.of(), AggregationStep.PARTIAL, true);
        HashExchangeNode exchange = new HashExchangeNode(partial, new int[] {0});
        PlanNode finalStep = new AggregateNode(ROW, exchange, new int[] {0}, new boolean[][] {{true}}, List.of(), AggregationStep.FINAL, true);
        GatherNode gather = new GatherNode(finalStep);
        // a repartition whose input is a fragment: the final step runs on the workers too, each taking its keys
        List<Fragment> fragments = Fragmenter.fragments(gather);
        assertThat(fragments).extracting(Fragment::exchange).containsExactly(gather, exchange);
        assertThat(fragments).extracting(Fragment::parent).containsExactly(-1, 0);
        // one whose input is not (it reads a table of one process) keeps everything above it on the coordinator
        HashExchangeNode local = new HashExchangeNode(new AggregateNode(ROW, scan(false), new int[] {0}, new boolean[][] {{true}}, List.of(), AggregationStep.PARTIAL, true), new int[] {0});
        assertThat(Fragmenter.fragments(new GatherNode(new AggregateNode(ROW, local, new int[] {0}, new boolean[][] {{true}}, List.of(), AggregationStep.FINAL, true)))).isEmpty();

        for (JoinType matching : List.of(JoinType.RIGHT, JoinType.FULL, JoinType.RIGHT_SEMI, JoinType.RIGHT_ANTI)) {
            GatherNode build = new GatherNode(scan(true));
            List<Fragment> below = Fragmenter.fragments(new GatherNode(join(matching, scan(true), build)));
            // the probe runs where the matches meet; only the build side's own pipeline goes to the workers
            assertThat(below).as("%s", matching).extracting(Fragment::exchange).containsExactly(build);
        }
        assertThat(Fragmenter.fragments(new GatherNode(join(JoinType.LEFT, scan(true), new GatherNode(scan(true)))))).extracting(Fragment::parent).containsExactly(-1, 0);
    }

    private static PlanNode filter(PlanNode input)
    {
        return new FilterProjectNode(ROW, input, null, List.of(new org.apache.calcite.rex.RexInputRef(0, ROW.getFieldList().get(0).getType())));
    }

    private static JoinNode join(JoinType type, PlanNode probe, PlanNode build)
    {
        return new JoinNode(ROW, ROW, probe, build, type, new int[] {0}, new int[] {0}, new boolean[] {false}, null);
    }

    private static ScanNode scan(boolean readableOnEveryNode)
    {
        Schema schema = ArrowTypes.toSchema(ROW);
        Connector connector = new Connector()
        {
            @Override
            public ConnectorMetadata metadata()
            {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean readableOnEveryNode(TableHandle table)
            {
                return readableOnEveryNode;
            }

            @Override
            public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
            {
                return List.of();
            }

            @Override
            public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
            {
                throw new UnsupportedOperationException();
            }
        };
        return new ScanNode(ROW, connector, new TableHandle("test", "s", "t", schema, TableStatistics.UNKNOWN, "t"), new ScanSpec(List.of("k"), List.of()));
    }
}
