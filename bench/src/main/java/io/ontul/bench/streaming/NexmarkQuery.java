package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One Nexmark query of {@link NexmarkBenchmark}, written for both engines over the same Kafka
 * topic ({@link NexmarkEvents}): Flink reads it through the view {@code bid} (the bids of the
 * {@code nexmark} table, as the Nexmark repository's Kafka DDL defines it); Ontul has no views
 * yet, so its query reads the Kafka table {@code %s} with {@code event_type = 2} itself.
 * <p>
 * Where the two texts differ, it is spelling only: Ontul's {@code EXTRACT(HOUR FROM ...)} for
 * Flink's {@code HOUR(...)}, {@code SPLIT_PART} (1-based) for {@code SPLIT_INDEX} (0-based), a
 * window column for {@code DATE_FORMAT(dateTime, 'yyyy-MM-dd')}. q15 to q17 group per day with a
 * one-day TUMBLE in both engines (Nexmark's text groups by the formatted day without a window,
 * which Flink runs as an updating aggregation and Ontul's jobs do not support); q14's
 * {@code count_char} UDF is the same expression in both. q11 sessionizes the bids only, as Flink's
 * view does: Ontul's text filters in a subquery under SESSION (a WHERE above it would filter after
 * the sessions are formed, and the other events, all of bidder NULL, would wait in one session that
 * never ends). Both engines write what the query
 * returns; the check compares the row count and the sum of {@link #checkColumn} (string
 * lengths for a text column) between them.
 *
 * @param ontulColumns the Ontul sink table's columns
 */
record NexmarkQuery(String id, String description, String ontulSql, String ontulColumns, String flinkSql, String checkColumn, boolean checkText)
{
    private static final String PER_DAY_COUNTS = """
            count(*) AS total_bids,
            count(*) FILTER (WHERE price < 10000) AS rank1_bids,
            count(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,
            count(*) FILTER (WHERE price >= 1000000) AS rank3_bids""";
    private static final String PER_DAY_DISTINCT = """
            count(DISTINCT bidder) AS total_bidders,
            count(DISTINCT bidder) FILTER (WHERE price < 10000) AS rank1_bidders,
            count(DISTINCT bidder) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bidders,
            count(DISTINCT bidder) FILTER (WHERE price >= 1000000) AS rank3_bidders,
            count(DISTINCT auction) AS total_auctions,
            count(DISTINCT auction) FILTER (WHERE price < 10000) AS rank1_auctions,
            count(DISTINCT auction) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_auctions,
            count(DISTINCT auction) FILTER (WHERE price >= 1000000) AS rank3_auctions""";
    private static final String PER_DAY_COUNT_COLUMNS = "total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT, rank3_bids BIGINT";
    private static final String PER_DAY_DISTINCT_COLUMNS = "total_bidders BIGINT, rank1_bidders BIGINT, rank2_bidders BIGINT, rank3_bidders BIGINT, "
            + "total_auctions BIGINT, rank1_auctions BIGINT, rank2_auctions BIGINT, rank3_auctions BIGINT";
    private static final String DAY_WINDOW_ONTUL = "TABLE(TUMBLE(TABLE %s, DESCRIPTOR(date_time), INTERVAL '1' DAY))";
    private static final String DAY_WINDOW_FLINK = "TABLE(TUMBLE(TABLE bid, DESCRIPTOR(date_time), INTERVAL '1' DAY))";
    private static final String HOUR_CASE = """
            CASE
              WHEN %1$s >= 8 AND %1$s <= 18 THEN 'dayTime'
              WHEN %1$s <= 6 OR %1$s >= 20 THEN 'nightTime'
              ELSE 'otherTime'
            END""";

    static final List<NexmarkQuery> ALL = List.of(
            new NexmarkQuery("q0", "pass through",
                    "SELECT auction, bidder, price, date_time, extra FROM %s WHERE event_type = 2",
                    "(auction BIGINT, bidder BIGINT, price BIGINT, date_time TIMESTAMP(3), extra VARCHAR)",
                    "SELECT auction, bidder, price, date_time, extra FROM bid",
                    "price", false),
            new NexmarkQuery("q1", "currency conversion",
                    "SELECT auction, bidder, 0.908 * price AS price, date_time, extra FROM %s WHERE event_type = 2",
                    "(auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), date_time TIMESTAMP(3), extra VARCHAR)",
                    "SELECT auction, bidder, 0.908 * price AS price, date_time, extra FROM bid",
                    "price", false),
            new NexmarkQuery("q2", "selection",
                    "SELECT auction, price FROM %s WHERE event_type = 2 AND MOD(auction, 123) = 0",
                    "(auction BIGINT, price BIGINT)",
                    "SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0",
                    "price", false),
            new NexmarkQuery("q11", "user sessions (SESSION window, 10 s gap, per bidder)",
                    "SELECT bidder, count(*) AS bid_count, window_start AS starttime, window_end AS endtime "
                            + "FROM TABLE(SESSION((SELECT bidder, date_time FROM %s WHERE event_type = 2), DESCRIPTOR(date_time), DESCRIPTOR(bidder), INTERVAL '10' SECOND)) "
                            + "GROUP BY bidder, window_start, window_end",
                    "(bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3))",
                    "SELECT bidder, count(*) AS bid_count, SESSION_START(date_time, INTERVAL '10' SECOND) AS starttime, "
                            + "SESSION_END(date_time, INTERVAL '10' SECOND) AS endtime FROM bid GROUP BY bidder, SESSION(date_time, INTERVAL '10' SECOND)",
                    "bid_count", false),
            new NexmarkQuery("q14", "calculation (CASE on the hour, count of 'c' in extra)",
                    "SELECT auction, bidder, 0.908 * price AS price, " + HOUR_CASE.formatted("EXTRACT(HOUR FROM date_time)") + " AS bid_time_type, date_time, extra, "
                            + "CHAR_LENGTH(extra) - CHAR_LENGTH(REPLACE(extra, 'c', '')) AS c_counts "
                            + "FROM %s WHERE event_type = 2 AND 0.908 * price > 1000000 AND 0.908 * price < 50000000",
                    "(auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), bid_time_type VARCHAR, date_time TIMESTAMP(3), extra VARCHAR, c_counts BIGINT)",
                    "SELECT auction, bidder, 0.908 * price AS price, " + HOUR_CASE.formatted("HOUR(date_time)") + " AS bid_time_type, date_time, extra, "
                            + "CAST(CHAR_LENGTH(extra) - CHAR_LENGTH(REPLACE(extra, 'c', '')) AS BIGINT) AS c_counts "
                            + "FROM bid WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000",
                    "c_counts", false),
            new NexmarkQuery("q15", "bidding statistics per day (COUNT DISTINCT with FILTER)",
                    "SELECT window_start AS day_start, " + PER_DAY_COUNTS + ",\n" + PER_DAY_DISTINCT + "\nFROM " + DAY_WINDOW_ONTUL
                            + " WHERE event_type = 2 GROUP BY window_start, window_end",
                    "(day_start TIMESTAMP(3), " + PER_DAY_COUNT_COLUMNS + ", " + PER_DAY_DISTINCT_COLUMNS + ")",
                    "SELECT window_start AS day_start, " + PER_DAY_COUNTS + ",\n" + PER_DAY_DISTINCT + "\nFROM " + DAY_WINDOW_FLINK + " GROUP BY window_start, window_end",
                    "total_bidders", false),
            new NexmarkQuery("q16", "channel statistics per day (COUNT DISTINCT with FILTER)",
                    "SELECT channel, window_start AS day_start, max(SUBSTRING(CAST(date_time AS VARCHAR), 12, 5)) AS last_minute, " + PER_DAY_COUNTS + ",\n" + PER_DAY_DISTINCT
                            + "\nFROM " + DAY_WINDOW_ONTUL + " WHERE event_type = 2 GROUP BY channel, window_start, window_end",
                    "(channel VARCHAR, day_start TIMESTAMP(3), last_minute VARCHAR, " + PER_DAY_COUNT_COLUMNS + ", " + PER_DAY_DISTINCT_COLUMNS + ")",
                    "SELECT channel, window_start AS day_start, max(DATE_FORMAT(date_time, 'HH:mm')) AS last_minute, " + PER_DAY_COUNTS + ",\n" + PER_DAY_DISTINCT
                            + "\nFROM " + DAY_WINDOW_FLINK + " GROUP BY channel, window_start, window_end",
                    "total_bidders", false),
            new NexmarkQuery("q17", "auction statistics per day",
                    "SELECT auction, window_start AS day_start, " + PER_DAY_COUNTS + ", min(price) AS min_price, max(price) AS max_price, avg(price) AS avg_price, "
                            + "sum(price) AS sum_price FROM " + DAY_WINDOW_ONTUL + " WHERE event_type = 2 GROUP BY auction, window_start, window_end",
                    "(auction BIGINT, day_start TIMESTAMP(3), " + PER_DAY_COUNT_COLUMNS + ", min_price BIGINT, max_price BIGINT, avg_price BIGINT, sum_price BIGINT)",
                    "SELECT auction, window_start AS day_start, " + PER_DAY_COUNTS + ", min(price) AS min_price, max(price) AS max_price, avg(price) AS avg_price, "
                            + "sum(price) AS sum_price FROM " + DAY_WINDOW_FLINK + " GROUP BY auction, window_start, window_end",
                    "sum_price", false),
            new NexmarkQuery("q22", "URL directories (SPLIT_PART / SPLIT_INDEX)",
                    "SELECT auction, bidder, price, channel, SPLIT_PART(url, '/', 4) AS dir1, SPLIT_PART(url, '/', 5) AS dir2, SPLIT_PART(url, '/', 6) AS dir3 "
                            + "FROM %s WHERE event_type = 2",
                    "(auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, dir1 VARCHAR, dir2 VARCHAR, dir3 VARCHAR)",
                    "SELECT auction, bidder, price, channel, SPLIT_INDEX(url, '/', 3) AS dir1, SPLIT_INDEX(url, '/', 4) AS dir2, SPLIT_INDEX(url, '/', 5) AS dir3 FROM bid",
                    "dir3", true));

    NexmarkQuery
    {
        requireNonNull(id, "id is null");
        requireNonNull(description, "description is null");
        requireNonNull(ontulSql, "ontulSql is null");
        requireNonNull(ontulColumns, "ontulColumns is null");
        requireNonNull(flinkSql, "flinkSql is null");
        requireNonNull(checkColumn, "checkColumn is null");
    }

    static Optional<NexmarkQuery> byId(String id)
    {
        return ALL.stream().filter(query -> query.id().equals(id)).findFirst();
    }

    /** Ontul's query over Kafka table {@code source}. */
    String ontulSql(String source)
    {
        return ontulSql.replace("%s", source);
    }

    /** The check over Ontul's sink table: row count and the sum of the check column. */
    String ontulCheck(String table)
    {
        return "SELECT count(*), sum(" + (checkText ? "CHAR_LENGTH(" + checkColumn + ")" : checkColumn) + ") FROM " + table;
    }
}
