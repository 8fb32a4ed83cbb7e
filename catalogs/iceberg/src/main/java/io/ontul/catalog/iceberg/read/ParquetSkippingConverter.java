package io.ontul.catalog.iceberg.read;

import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;

/**
 * The record converter Parquet's column readers require but the loaders never use: they take
 * values straight from the {@code ColumnReader}. Only flat schemas are read.
 */
final class ParquetSkippingConverter
        extends GroupConverter
{
    private static final PrimitiveConverter PRIMITIVE = new PrimitiveConverter() {};

    @Override
    public Converter getConverter(int fieldIndex)
    {
        return PRIMITIVE;
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
}
