package io.ontul.catalog.iceberg.read;

import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;

/**
 * The record converter Parquet's column readers require but the loaders never use: they take
 * values straight from the {@code ColumnReader}. Mirrors the groups of the schema (a list's
 * repeated group) so that the column reader of a nested leaf finds its way down.
 */
final class ParquetSkippingConverter
        extends GroupConverter
{
    private static final PrimitiveConverter PRIMITIVE = new PrimitiveConverter() {};

    private final GroupType schema;

    ParquetSkippingConverter(GroupType schema)
    {
        this.schema = schema;
    }

    @Override
    public Converter getConverter(int fieldIndex)
    {
        org.apache.parquet.schema.Type field = schema.getType(fieldIndex);
        return field.isPrimitive() ? PRIMITIVE : new ParquetSkippingConverter(field.asGroupType());
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
}
