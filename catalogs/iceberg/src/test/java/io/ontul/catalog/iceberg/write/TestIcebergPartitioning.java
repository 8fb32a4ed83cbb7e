package io.ontul.catalog.iceberg.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

class TestIcebergPartitioning
{
    private static final Schema SCHEMA = new Schema(
            Types.NestedField.optional(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
            Types.NestedField.optional(3, "d", Types.DateType.get()),
            Types.NestedField.optional(4, "name", Types.StringType.get()),
            Types.NestedField.optional(5, "Mixed Case", Types.StringType.get()));

    @Test
    void parsesEveryTransform()
    {
        PartitionSpec spec = IcebergPartitioning.parse("t", SCHEMA, List.of("hour(ts)", "DAY( d )", "bucket(16, id)", "truncate(10,name)", "\"Mixed Case\""));
        assertThat(spec.fields()).extracting(PartitionField::name).containsExactly("ts_hour", "d_day", "id_bucket", "name_trunc", "Mixed Case");
        assertThat(spec.fields()).extracting(field -> field.transform().toString()).containsExactly("hour", "day", "bucket[16]", "truncate[10]", "identity");
        assertThat(IcebergPartitioning.parse("t", SCHEMA, List.of("year(d)", "month(ts)")).fields()).extracting(field -> field.transform().toString())
                .containsExactly("year", "month");
        assertThat(IcebergPartitioning.parse("t", SCHEMA, List.of()).isUnpartitioned()).isTrue();
    }

    @Test
    void rejectsBadFields()
    {
        assertInvalid("day(name)", "Invalid partitioning 'day(name)' for table 't': ");
        assertInvalid("bucket(id)", "Invalid partitioning 'bucket(id)' for table 't': use a column name, year(c), month(c), day(c), hour(c), bucket(n, c) or truncate(n, c)");
        assertInvalid("missing", "Invalid partitioning 'missing' for table 't': Cannot find source column: missing");
    }

    private static void assertInvalid(String field, String messageStart)
    {
        assertThatThrownBy(() -> IcebergPartitioning.parse("t", SCHEMA, List.of(field)))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageStartingWith(messageStart);
    }
}
