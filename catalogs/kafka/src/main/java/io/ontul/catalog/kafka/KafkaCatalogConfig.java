package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.HostAccessPolicy;
import io.ontul.spi.OntulException;

/**
 * The properties of a Kafka catalog. {@code kafka.bootstrap-servers} is required and
 * {@code kafka.api-timeout} (default 5s) bounds every wait for the brokers; every other
 * {@code kafka.NAME} property is handed to the Kafka clients as {@code NAME} (SASL, TLS, client
 * tuning). A client gets the properties it knows plus those no client knows (plug-in settings).
 * Values are never logged or put in messages: some hold passwords.
 */
public final class KafkaCatalogConfig
{
    public static final String BOOTSTRAP_SERVERS = "kafka.bootstrap-servers";
    public static final String API_TIMEOUT = "kafka.api-timeout";
    public static final Duration DEFAULT_API_TIMEOUT = Duration.ofSeconds(5);

    private static final String PREFIX = "kafka.";
    /** Client settings the connector chooses itself because reads and writes depend on them. */
    private static final Set<String> CONNECTOR_SETTINGS = Set.of(
            "bootstrap.servers",
            "key.deserializer",
            "value.deserializer",
            "key.serializer",
            "value.serializer",
            "enable.auto.commit",
            "isolation.level",
            "transactional.id");

    private final String catalogName;
    private final String bootstrapServers;
    private final Duration apiTimeout;
    private final Map<String, String> clientProperties;

    private KafkaCatalogConfig(String catalogName, String bootstrapServers, Duration apiTimeout, Map<String, String> clientProperties)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.bootstrapServers = requireNonNull(bootstrapServers, "bootstrapServers is null");
        this.apiTimeout = requireNonNull(apiTimeout, "apiTimeout is null");
        this.clientProperties = Map.copyOf(requireNonNull(clientProperties, "clientProperties is null"));
    }

    /**
     * @throws OntulException INVALID_ARGUMENT for a missing, unknown or bad property, naming it
     */
    public static KafkaCatalogConfig parse(String catalogName, Map<String, String> config)
    {
        String bootstrapServers = null;
        Duration apiTimeout = DEFAULT_API_TIMEOUT;
        Map<String, String> clientProperties = new TreeMap<>();
        for (Map.Entry<String, String> entry : new TreeMap<>(config).entrySet()) {
            String name = entry.getKey();
            String value = entry.getValue();
            if (name.equals(BOOTSTRAP_SERVERS)) {
                bootstrapServers = value.trim();
                continue;
            }
            if (name.equals(API_TIMEOUT)) {
                apiTimeout = KafkaDurations.tryParse(value)
                        .filter(duration -> !duration.isZero())
                        .orElseThrow(() -> OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                                "Catalog '%s': property '%s' must be a positive duration such as '5s' or '500ms', not '%s'", catalogName, API_TIMEOUT, value));
                continue;
            }
            if (!name.startsWith(PREFIX) || name.length() == PREFIX.length()) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                        "Catalog '%s': unknown property '%s' (the kafka connector takes %s, %s and Kafka client properties prefixed with 'kafka.')",
                        catalogName, name, BOOTSTRAP_SERVERS, API_TIMEOUT);
            }
            String clientName = name.substring(PREFIX.length());
            if (clientName.equals("bootstrap.servers")) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': use property '%s' instead of '%s'", catalogName, BOOTSTRAP_SERVERS, name);
            }
            if (CONNECTOR_SETTINGS.contains(clientName)) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' cannot be set: the connector chooses it", catalogName, name);
            }
            clientProperties.put(clientName, value);
        }
        if (bootstrapServers == null || bootstrapServers.isEmpty()) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' is required (for example 'localhost:9092')", catalogName, BOOTSTRAP_SERVERS);
        }
        KafkaCatalogConfig parsed = new KafkaCatalogConfig(catalogName, bootstrapServers, apiTimeout, clientProperties);
        parsed.checkClientProperties();
        return parsed;
    }

    /** Kafka's own login modules: they only read the credentials written in {@code sasl.jaas.config}. */
    private static final Set<String> KAFKA_LOGIN_MODULES = Set.of(
            "org.apache.kafka.common.security.plain.PlainLoginModule",
            "org.apache.kafka.common.security.scram.ScramLoginModule",
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule");
    /**
     * Client properties that name a local file the client reads: TLS key and trust stores, and
     * the OAuth endpoints, which may be {@code file:} URLs; they must lie inside
     * {@code ontul.security.allowed-paths}.
     */
    private static final Set<String> FILE_PROPERTIES = Set.of("ssl.keystore.location", "ssl.truststore.location",
            "sasl.oauthbearer.token.endpoint.url", "sasl.oauthbearer.jwks.endpoint.url");
    /** Client properties that name classes to load or read files and environment through providers. */
    private static final Set<String> CLASS_LIST_PROPERTIES = Set.of("metric.reporters", "config.providers", "security.providers");

    /**
     * Refuses client properties that would load code on the server's host: any {@code *.class}
     * and {@code *.classes} (callback handlers, interceptors, partitioners, engine factories),
     * class lists (metric reporters, config and security providers, whose file and directory
     * providers read any file), and a {@code sasl.jaas.config} naming a login module other than
     * Kafka's PLAIN, SCRAM and OAUTHBEARER ones (JNDI or Kerberos modules reach other systems and
     * the host's files); and key stores, trust stores and {@code file:} OAuth endpoints outside
     * {@code ontul.security.allowed-paths}. The operator may allow any of them by name
     * ({@link HostAccessPolicy#ALLOWED_CLIENT_PROPERTIES}).
     */
    public static void checkHostAccess(String catalogName, Map<String, String> config, HostAccessPolicy hostAccess)
    {
        for (Map.Entry<String, String> entry : new TreeMap<>(config).entrySet()) {
            String name = entry.getKey();
            if (!name.startsWith(PREFIX)) {
                continue;
            }
            String clientName = name.substring(PREFIX.length());
            if (clientName.endsWith(".class") || clientName.endsWith(".classes") || CLASS_LIST_PROPERTIES.contains(clientName)
                    || clientName.startsWith("config.providers.")) {
                hostAccess.checkClientProperty(catalogName, name, clientName, "loads classes by name or reads files through a provider");
            }
            if (FILE_PROPERTIES.contains(clientName)) {
                hostAccess.checkLocation(catalogName, name, entry.getValue());
            }
            if (clientName.equals("sasl.jaas.config")) {
                String loginModule = entry.getValue().strip().split("\\s+", 2)[0];
                if (!KAFKA_LOGIN_MODULES.contains(loginModule)) {
                    hostAccess.checkClientProperty(catalogName, name, clientName,
                            "names login module '" + loginModule + "', not one of Kafka's PLAIN, SCRAM and OAUTHBEARER modules, and loads it");
                }
            }
        }
    }

    /** Lets the clients' own definitions check the values, without connecting anywhere. */
    private void checkClientProperties()
    {
        try {
            AdminClientConfig.configDef().parse(adminProperties());
            Map<String, Object> consumer = consumerProperties();
            consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            ConsumerConfig.configDef().parse(consumer);
            Map<String, Object> producer = producerProperties();
            producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            ProducerConfig.configDef().parse(producer);
        }
        catch (ConfigException e) {
            String message = e.getMessage();
            for (Map.Entry<String, String> entry : clientProperties.entrySet()) {
                if (isSecret(entry.getKey()) && !entry.getValue().isEmpty()) {
                    message = message.replace(entry.getValue(), "[hidden]");
                }
            }
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': bad Kafka client property (set as 'kafka.NAME'): %s", catalogName, message);
        }
    }

    private static boolean isSecret(String name)
    {
        String lowerCase = name.toLowerCase(Locale.ROOT);
        return lowerCase.contains("password") || lowerCase.contains("jaas") || lowerCase.contains("secret") || lowerCase.contains("key");
    }

    public String catalogName()
    {
        return catalogName;
    }

    public String bootstrapServers()
    {
        return bootstrapServers;
    }

    public Duration apiTimeout()
    {
        return apiTimeout;
    }

    /** Settings for an admin client; callers may add their own. */
    public Map<String, Object> adminProperties()
    {
        Map<String, Object> properties = clientProperties(AdminClientConfig.configNames());
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, apiTimeout.toMillis());
        properties.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMillis);
        properties.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMillis);
        properties.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "ontul-" + catalogName + "-admin");
        return properties;
    }

    /** Settings for a consumer; callers add deserializers and their own settings. */
    public Map<String, Object> consumerProperties()
    {
        Map<String, Object> properties = clientProperties(ConsumerConfig.configNames());
        properties.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, apiTimeout.toMillis()));
        return properties;
    }

    /** Settings for a producer; callers add serializers and their own settings. */
    public Map<String, Object> producerProperties()
    {
        Map<String, Object> properties = clientProperties(ProducerConfig.configNames());
        properties.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, apiTimeout.toMillis());
        return properties;
    }

    private Map<String, Object> clientProperties(Set<String> known)
    {
        Map<String, Object> properties = new HashMap<>();
        clientProperties.forEach((name, value) -> {
            if (known.contains(name) || !isKnownToAnyClient(name)) {
                properties.put(name, value);
            }
        });
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return properties;
    }

    private static boolean isKnownToAnyClient(String name)
    {
        return AdminClientConfig.configNames().contains(name) || ConsumerConfig.configNames().contains(name) || ProducerConfig.configNames().contains(name);
    }

    /** Names only: values may be secrets. */
    @Override
    public String toString()
    {
        return "KafkaCatalogConfig{catalog=" + catalogName + ", bootstrapServers=" + bootstrapServers + ", apiTimeout=" + apiTimeout + ", clientProperties=" + new TreeMap<>(clientProperties).keySet() + "}";
    }
}
