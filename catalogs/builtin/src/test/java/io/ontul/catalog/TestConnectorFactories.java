package io.ontul.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.tpch.TpchConnector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.InMemoryConnectorStore;
import io.ontul.spi.OntulException;

class TestConnectorFactories
{
    @Test
    void testServiceLoaderFindsTheBuiltInConnectors()
    {
        Map<String, ConnectorFactory> factories = new HashMap<>();
        ServiceLoader.load(ConnectorFactory.class).forEach(factory -> factories.put(factory.name(), factory));
        assertThat(factories).containsOnlyKeys("tpch", "tpcds", "memory", "blackhole");
        assertThat(factories.get("tpch").create("tpch", Map.of(), new NoContext())).isInstanceOf(TpchConnector.class);
        assertThat(factories.get("tpcds").create("tpcds", Map.of(), new NoContext())).isInstanceOf(io.ontul.catalog.tpcds.TpcdsConnector.class);
        assertThat(factories.get("memory").getClass().getSimpleName()).isEqualTo("MemoryConnectorFactory");
        assertThat(factories.get("blackhole").create("sink", Map.of(), new NoContext())).isInstanceOf(io.ontul.catalog.blackhole.BlackholeConnector.class);
    }

    @Test
    void testTpchRejectsProperties()
    {
        ConnectorFactory factory = ServiceLoader.load(ConnectorFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(candidate -> candidate.name().equals("tpch"))
                .findFirst()
                .orElseThrow();
        assertThatThrownBy(() -> factory.create("bench", Map.of("tpch.splits", "4"), new NoContext()))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Catalog 'bench': unknown property 'tpch.splits' (the tpch connector takes no properties)");
    }

    private static final class NoContext
            implements ConnectorContext
    {
        @Override
        public BufferAllocator allocator()
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public int parallelism()
        {
            return 2;
        }

        @Override
        public ConnectorStore store()
        {
            return new InMemoryConnectorStore();
        }
    }
}
