package io.ontul.catalog.iceberg;

import org.apache.iceberg.metrics.MetricsReport;
import org.apache.iceberg.metrics.MetricsReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs Iceberg's scan and commit reports at DEBUG. Iceberg's default reporter logs each at INFO,
 * a long line for every query. A catalog may choose another with
 * {@code iceberg.catalog.metrics-reporter-impl}.
 */
public final class IcebergDebugMetricsReporter
        implements MetricsReporter
{
    private static final Logger LOG = LoggerFactory.getLogger(IcebergDebugMetricsReporter.class);

    @Override
    public void report(MetricsReport report)
    {
        LOG.debug("{}", report);
    }
}
