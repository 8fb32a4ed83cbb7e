package io.ontul.server.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;

import io.ontul.engine.api.QueryResult;
import io.ontul.spi.OntulException;

/**
 * {@code ontul demo}: the streaming walkthrough against a server started with
 * {@code --with-kafka}. Creates topic {@value #TOPIC}, the Kafka table
 * {@code kafka."default".user_events} over it (event time with a watermark), the Iceberg table
 * {@code iceberg.analytics.event_summary} and the streaming job {@value #JOB} (10 s tumbling
 * windows), each unless it exists; then produces user events with the current time as event time
 * until stopped (or for {@code --duration}).
 */
public final class DemoCommand
{
    public static final String TOPIC = "user-events";
    public static final String JOB = "realtime_agg";
    static final List<String> SETUP = List.of(
            "CREATE CATALOG IF NOT EXISTS iceberg USING iceberg",
            "CREATE TABLE IF NOT EXISTS kafka.\"default\".user_events (event_id BIGINT, \"user\" VARCHAR, category VARCHAR, amount DOUBLE, event_time TIMESTAMP(3)) "
                    + "WITH ('topic' = '" + TOPIC + "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset', "
                    + "'watermark.column' = 'event_time', 'watermark.delay' = '2s', 'watermark.idle-timeout' = '5s')",
            "CREATE SCHEMA IF NOT EXISTS iceberg.analytics",
            "CREATE TABLE IF NOT EXISTS iceberg.analytics.event_summary (window_start TIMESTAMP(3), window_end TIMESTAMP(3), category VARCHAR, total DOUBLE, cnt BIGINT)",
            "CREATE STREAMING JOB IF NOT EXISTS " + JOB + " WITH ('checkpoint.interval' = '10s') AS INSERT INTO iceberg.analytics.event_summary "
                    + "SELECT window_start, window_end, category, SUM(amount) AS total, COUNT(*) AS cnt "
                    + "FROM TABLE(TUMBLE(TABLE kafka.\"default\".user_events, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) "
                    + "WHERE amount > 100 GROUP BY window_start, window_end, category");
    private static final List<String> CATEGORIES = List.of("books", "games", "music", "garden", "sports", "toys", "tools", "travel");
    private static final DateTimeFormatter EVENT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");

    public static final String USAGE = """
            Usage: ontul demo [--server HOST:PORT] [--user USER] [--password PASSWORD] [--kafka HOST:PORT] [--rate N] [--duration SECONDS]

            The streaming walkthrough. Start the server first with 'ontul start --with-kafka', then
            run this: it creates the Kafka topic user-events, the table kafka."default".user_events,
            the Iceberg table iceberg.analytics.event_summary and the streaming job realtime_agg
            (10 s windows per category), unless they exist, and produces user events until Ctrl-C.

              --server HOST:PORT  the Ontul server (default 127.0.0.1:47470)
              --user USER         default admin
              --password PASSWORD default: the environment variable ONTUL_PASSWORD
              --kafka HOST:PORT   the broker (default 127.0.0.1:9092, that of --with-kafka)
              --rate N            events per second (default 200)
              --duration SECONDS  stop after this long (default: run until Ctrl-C)
            """;

    private final CommandEnvironment environment;

    public DemoCommand(CommandEnvironment environment)
    {
        this.environment = requireNonNull(environment, "environment is null");
    }

    public int run(List<String> arguments)
    {
        PrintStream output = new PrintStream(environment.output(), true, UTF_8);
        PrintStream error = environment.error();
        Map<String, String> options;
        try {
            options = parse(arguments);
        }
        catch (UsageException e) {
            error.println(e.getMessage());
            error.println();
            error.print(USAGE);
            return SqlCommand.USAGE_ERROR;
        }
        if (options.containsKey("--help")) {
            output.print(USAGE);
            output.flush();
            return SqlCommand.SUCCESS;
        }
        String kafka = options.getOrDefault("--kafka", "127.0.0.1:9092");
        int rate;
        long durationSeconds;
        ServerConnection connection;
        try {
            rate = positive(options.getOrDefault("--rate", "200"), "--rate");
            durationSeconds = options.containsKey("--duration") ? positive(options.get("--duration"), "--duration") : 0;
            String password = Optional.ofNullable(options.get("--password")).or(() -> Optional.ofNullable(environment.variables().get(SqlCommand.PASSWORD_VARIABLE)))
                    .orElseThrow(() -> new UsageException("Give the password with --password or the environment variable " + SqlCommand.PASSWORD_VARIABLE));
            connection = new ServerConnection(ServerAddress.parse(options.getOrDefault("--server", "127.0.0.1:47470")), options.getOrDefault("--user", "admin"), password, false, Optional.empty());
        }
        catch (UsageException e) {
            error.println(e.getMessage());
            return SqlCommand.USAGE_ERROR;
        }
        try {
            createTopic(kafka);
            try (FlightStatementExecutor server = FlightStatementExecutor.connect(connection)) {
                for (String statement : SETUP) {
                    try (QueryResult result = server.execute(statement)) {
                        while (result.nextBatch() != null) {
                            // DDL: one update count
                        }
                    }
                }
            }
        }
        catch (OntulException | KafkaException | IllegalStateException e) {
            error.println("Demo setup failed: " + e.getMessage());
            return SqlCommand.FAILURE;
        }
        output.println("Streaming job " + JOB + " reads topic " + TOPIC + " on " + kafka + " and writes 10 s windows to iceberg.analytics.event_summary.");
        output.println("Producing " + rate + " events/s" + (durationSeconds > 0 ? " for " + durationSeconds + " s" : " until Ctrl-C") + ". In another terminal:");
        output.println("  bin/ontul sql --server " + connection.address().host() + ":" + connection.address().port()
                + " \"SELECT * FROM iceberg.analytics.event_summary ORDER BY window_end DESC, category LIMIT 8\"");
        output.println("  bin/ontul sql --server " + connection.address().host() + ":" + connection.address().port() + " \"SHOW STREAMING JOBS\"");
        produce(kafka, rate, durationSeconds, output);
        return SqlCommand.SUCCESS;
    }

    private static void createTopic(String kafka)
    {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 4, (short) 1))).all().get();
        }
        catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Cannot create topic " + TOPIC + " on Kafka at " + kafka + ": " + e.getCause().getMessage(), e.getCause());
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + TOPIC, e);
        }
    }

    private static void produce(String kafka, int rate, long durationSeconds, PrintStream output)
    {
        Random random = new Random();
        long start = System.nanoTime();
        long end = durationSeconds > 0 ? start + Duration.ofSeconds(durationSeconds).toNanos() : Long.MAX_VALUE;
        long sent = 0;
        long nextReport = start + Duration.ofSeconds(10).toNanos();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka, ProducerConfig.LINGER_MS_CONFIG, 20),
                new StringSerializer(), new StringSerializer())) {
            while (System.nanoTime() < end) {
                long due = start + sent * 1_000_000_000L / rate;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                // event time is now, up to a second early: records arrive a little out of order
                LocalDateTime eventTime = LocalDateTime.now(ZoneOffset.UTC).minusNanos(random.nextInt(1000) * 1_000_000L);
                String value = String.format(Locale.ROOT, "{\"event_id\": %d, \"user\": \"user-%d\", \"category\": \"%s\", \"amount\": %.2f, \"event_time\": \"%s\"}",
                        sent, random.nextInt(1000), CATEGORIES.get(random.nextInt(CATEGORIES.size())), random.nextInt(50_000) / 100.0, EVENT_TIME.format(eventTime));
                producer.send(new ProducerRecord<>(TOPIC, String.valueOf(sent), value));
                sent++;
                if (System.nanoTime() >= nextReport) {
                    output.println("Produced " + sent + " events");
                    nextReport += Duration.ofSeconds(10).toNanos();
                }
            }
            producer.flush();
            output.println("Produced " + sent + " events");
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, String> parse(List<String> arguments)
            throws UsageException
    {
        Map<String, String> options = new java.util.HashMap<>();
        List<String> valued = List.of("--server", "--user", "--password", "--kafka", "--rate", "--duration");
        for (int index = 0; index < arguments.size(); index++) {
            String argument = arguments.get(index);
            if (argument.equals("--help") || argument.equals("-h")) {
                options.put("--help", "");
                continue;
            }
            int equals = argument.indexOf('=');
            String name = equals >= 0 ? argument.substring(0, equals) : argument;
            if (!valued.contains(name)) {
                throw new UsageException(argument.startsWith("-") ? "Unknown option '" + argument + "'" : "Unexpected argument '" + argument + "'");
            }
            if (equals >= 0) {
                options.put(name, argument.substring(equals + 1));
            }
            else if (index + 1 < arguments.size()) {
                options.put(name, arguments.get(++index));
            }
            else {
                throw new UsageException("Option " + name + " needs a value");
            }
        }
        return options;
    }

    private static int positive(String value, String option)
            throws UsageException
    {
        try {
            int number = Integer.parseInt(value.trim());
            if (number > 0) {
                return number;
            }
        }
        catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("Option " + option + " needs a whole number above 0: " + value);
    }
}
