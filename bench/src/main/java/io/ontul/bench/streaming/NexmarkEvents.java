package io.ontul.bench.streaming;

import java.util.Random;

/**
 * Nexmark's events (persons, auctions, bids of an online auction house) as the JSON values of
 * Kafka records, generated after the model of the Nexmark benchmark's generator (Beam's and the
 * nexmark/nexmark repository's): of every 50 events 1 is a new person, 3 are new auctions, 46
 * are bids; event {@code n} is drawn from a {@link Random} seeded with {@code n}, so any event
 * can be made alone, in any order, on any thread. Ids grow with the event number; a bid's auction
 * is usually a hot one (one of the latest hundred) or one of the last 100 in flight, its bidder
 * usually a hot person or one of the last 1,000 active; prices are {@code 100 * 10^(6u)} cents
 * for a uniform {@code u}; half the bids come through one of four hot channels with a fixed URL,
 * the others through one of 10,000 channels with a URL of three random path segments; the
 * {@code extra} text pads each kind to its average size (persons 200, auctions 500, bids 100
 * bytes). Event time goes up by {@link #MICROS_PER_EVENT} per event from {@link #EPOCH_MILLIS}
 * (in order, as Nexmark's generator makes them; its standard run makes 10 million events per
 * second of event time, which puts a whole run in a second or two and no 10 s session would ever
 * close before the end; 100,000 per second gives the windows something to do). Nexmark's own
 * generator draws from one unseeded random sequence; this one is reproducible.
 * <p>
 * The JSON is flat (Ontul's Kafka tables read flat objects): a person's fields are prefixed
 * {@code p_}, an auction's {@code a_}, a bid's are not, and every event has {@code event_type}
 * (0, 1, 2) and {@code date_time}. Closing events ({@code event_type} -1, two days ahead), one per
 * partition after the pre-filled ones, move every partition's watermark past every window.
 */
final class NexmarkEvents
{
    static final long EPOCH_MILLIS = EventRecords.EPOCH_MILLIS;
    /** 100,000 events per second of event time. */
    static final long MICROS_PER_EVENT = 10;

    static final String ONTUL_COLUMNS = "event_type INTEGER, p_id BIGINT, p_name VARCHAR, p_email VARCHAR, p_credit_card VARCHAR, p_city VARCHAR, p_state VARCHAR, "
            + "p_extra VARCHAR, a_id BIGINT, a_item_name VARCHAR, a_description VARCHAR, a_initial_bid BIGINT, a_reserve BIGINT, a_expires TIMESTAMP(3), "
            + "a_seller BIGINT, a_category BIGINT, a_extra VARCHAR, auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, extra VARCHAR, "
            + "date_time TIMESTAMP(3)";
    static final String FLINK_COLUMNS = ONTUL_COLUMNS.replace("INTEGER", "INT").replace("VARCHAR", "STRING");

    private static final int PERSON_PROPORTION = 1;
    private static final int AUCTION_PROPORTION = 3;
    private static final int BID_PROPORTION = 46;
    private static final int PROPORTION_DENOMINATOR = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;
    private static final long FIRST_PERSON_ID = 1000;
    private static final long FIRST_AUCTION_ID = 1000;
    private static final long FIRST_CATEGORY_ID = 10;
    private static final int CATEGORIES = 5;
    private static final int ACTIVE_PEOPLE = 1000;
    private static final int IN_FLIGHT_AUCTIONS = 100;
    private static final int PERSON_ID_LEAD = 10;
    private static final int AUCTION_ID_LEAD = 10;
    /** 1 in this many bids goes to an auction or comes from a bidder that is not hot. */
    private static final int HOT_AUCTION_RATIO = 2;
    private static final int HOT_BIDDER_RATIO = 4;
    private static final int HOT_SELLER_RATIO = 4;
    /** Hot auctions and persons are those whose id is a multiple of this. */
    private static final int HOT_ID_STEP = 100;
    private static final int HOT_CHANNELS_RATIO = 2;
    private static final int CHANNELS = 10_000;
    private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    private static final String[] HOT_URLS = new String[HOT_CHANNELS.length];
    private static final int PERSON_BYTES = 200;
    private static final int AUCTION_BYTES = 500;
    private static final int BID_BYTES = 100;
    private static final String[] FIRST_NAMES = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"};
    private static final String[] LAST_NAMES = {"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"};
    private static final String[] CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"};
    private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};

    static {
        Random random = new Random(0);
        for (int i = 0; i < HOT_URLS.length; i++) {
            HOT_URLS[i] = baseUrl(random);
        }
    }

    private final StringBuilder json = new StringBuilder(512);

    static long eventMicros(long event)
    {
        return event * MICROS_PER_EVENT;
    }

    /** The JSON of event {@code event} (0, 1, 2, ...). */
    String event(long event)
    {
        Random random = new Random(event);
        long millis = EPOCH_MILLIS + eventMicros(event) / 1000;
        json.setLength(0);
        long offset = event % PROPORTION_DENOMINATOR;
        if (offset < PERSON_PROPORTION) {
            person(event, random, millis);
        }
        else if (offset < PERSON_PROPORTION + AUCTION_PROPORTION) {
            auction(event, random, millis);
        }
        else {
            bid(event, random, millis);
        }
        return json.toString();
    }

    /** The closing event of a partition after {@code events} pre-filled ones: two days ahead, so every window of theirs closes. */
    String closing(long events)
    {
        json.setLength(0);
        json.append("{\"event_type\":-1,\"date_time\":\"");
        EventRecords.appendTimestamp(json, EPOCH_MILLIS + eventMicros(events) / 1000 + 2 * 86_400_000L);
        return json.append("\"}").toString();
    }

    private void person(long event, Random random, long millis)
    {
        String name = FIRST_NAMES[random.nextInt(FIRST_NAMES.length)] + " " + LAST_NAMES[random.nextInt(LAST_NAMES.length)];
        String email = word(random, 7) + "@" + word(random, 5) + ".com";
        String creditCard = digits(random, 4) + " " + digits(random, 4) + " " + digits(random, 4) + " " + digits(random, 4);
        String city = CITIES[random.nextInt(CITIES.length)];
        String state = STATES[random.nextInt(STATES.length)];
        json.append("{\"event_type\":0,\"p_id\":").append(lastPerson(event) + FIRST_PERSON_ID);
        text("p_name", name);
        text("p_email", email);
        text("p_credit_card", creditCard);
        text("p_city", city);
        text("p_state", state);
        // sizes as Nexmark counts them: the id and the texts
        text("p_extra", extra(random, 8 + name.length() + email.length() + creditCard.length() + city.length() + state.length(), PERSON_BYTES));
        end(millis);
    }

    private void auction(long event, Random random, long millis)
    {
        long seller = random.nextInt(HOT_SELLER_RATIO) > 0 ? lastPerson(event) / HOT_ID_STEP * HOT_ID_STEP : nextPerson(event, random);
        long initialBid = price(random);
        String itemName = word(random, 20);
        String description = word(random, 100);
        json.append("{\"event_type\":1,\"a_id\":").append(lastAuction(event) + FIRST_AUCTION_ID);
        text("a_item_name", itemName);
        text("a_description", description);
        json.append(",\"a_initial_bid\":").append(initialBid);
        json.append(",\"a_reserve\":").append(initialBid + price(random));
        // Nexmark: an auction lasts on average as long as 1,666 events take (in flight / auctions' share)
        long averageLength = Math.max(1, IN_FLIGHT_AUCTIONS * PROPORTION_DENOMINATOR / AUCTION_PROPORTION * MICROS_PER_EVENT / 1000);
        json.append(",\"a_expires\":\"");
        EventRecords.appendTimestamp(json, millis + 1 + nextLong(random, 2 * averageLength));
        json.append("\",\"a_seller\":").append(seller + FIRST_PERSON_ID);
        json.append(",\"a_category\":").append(FIRST_CATEGORY_ID + random.nextInt(CATEGORIES));
        text("a_extra", extra(random, 8 + itemName.length() + description.length() + 40, AUCTION_BYTES));
        end(millis);
    }

    private void bid(long event, Random random, long millis)
    {
        long auction = random.nextInt(HOT_AUCTION_RATIO) > 0 ? lastAuction(event) / HOT_ID_STEP * HOT_ID_STEP : nextAuction(event, random);
        long bidder = random.nextInt(HOT_BIDDER_RATIO) > 0 ? lastPerson(event) / HOT_ID_STEP * HOT_ID_STEP + 1 : nextPerson(event, random);
        long price = price(random);
        String channel;
        String url;
        if (random.nextInt(HOT_CHANNELS_RATIO) > 0) {
            int hot = random.nextInt(HOT_CHANNELS.length);
            channel = HOT_CHANNELS[hot];
            url = HOT_URLS[hot];
        }
        else {
            int number = random.nextInt(CHANNELS);
            channel = "channel-" + number;
            url = baseUrl(random) + "&channel_id=" + Math.abs(Integer.reverse(number));
        }
        json.append("{\"event_type\":2,\"auction\":").append(auction + FIRST_AUCTION_ID)
                .append(",\"bidder\":").append(bidder + FIRST_PERSON_ID)
                .append(",\"price\":").append(price);
        text("channel", channel);
        text("url", url);
        // Nexmark counts a bid's fixed fields as 32 bytes
        text("extra", extra(random, 32, BID_BYTES));
        end(millis);
    }

    private void text(String name, String value)
    {
        // the generator's texts hold letters, digits, spaces and URL characters only: nothing to escape
        json.append(",\"").append(name).append("\":\"").append(value).append('"');
    }

    private void end(long millis)
    {
        json.append(",\"date_time\":\"");
        EventRecords.appendTimestamp(json, millis);
        json.append("\"}");
    }

    /** The 0-based id of the latest person made at or before {@code event}. */
    private static long lastPerson(long event)
    {
        long epoch = event / PROPORTION_DENOMINATOR;
        long offset = Math.min(event % PROPORTION_DENOMINATOR, PERSON_PROPORTION - 1);
        return epoch * PERSON_PROPORTION + offset;
    }

    /** One of the active persons (or a few not made yet), 0-based. */
    private static long nextPerson(long event, Random random)
    {
        long people = lastPerson(event) + 1;
        long active = Math.min(people, ACTIVE_PEOPLE);
        return people - active + nextLong(random, active + PERSON_ID_LEAD);
    }

    /** The 0-based id of the latest auction made at or before {@code event}. */
    private static long lastAuction(long event)
    {
        long epoch = event / PROPORTION_DENOMINATOR;
        long offset = event % PROPORTION_DENOMINATOR;
        if (offset < PERSON_PROPORTION) {
            epoch--;
            offset = AUCTION_PROPORTION - 1;
        }
        else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
            offset = AUCTION_PROPORTION - 1;
        }
        else {
            offset -= PERSON_PROPORTION;
        }
        return Math.max(0, epoch * AUCTION_PROPORTION + offset);
    }

    /** One of the auctions in flight (or a few not made yet), 0-based. */
    private static long nextAuction(long event, Random random)
    {
        long last = lastAuction(event);
        long first = Math.max(last - IN_FLIGHT_AUCTIONS, 0);
        return first + nextLong(random, last - first + 1 + AUCTION_ID_LEAD);
    }

    private static long nextLong(Random random, long bound)
    {
        return bound <= Integer.MAX_VALUE ? random.nextInt((int) bound) : random.nextLong(bound);
    }

    /** Cents: 100 * 10^(6u), 1 dollar to a million. */
    private static long price(Random random)
    {
        return Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
    }

    private static String baseUrl(Random random)
    {
        return "https://www.nexmark.com/" + word(random, 5, '_') + "/" + word(random, 5, '_') + "/" + word(random, 5, '_') + "/item.htm?query=1";
    }

    private static String word(Random random, int maxLength)
    {
        return word(random, maxLength, ' ');
    }

    /** 3 to maxLength - 1 lower-case letters, about 1 in 13 of them {@code special} instead. */
    private static String word(Random random, int maxLength, char special)
    {
        int length = 3 + random.nextInt(Math.max(1, maxLength - 3));
        char[] characters = new char[length];
        for (int i = 0; i < length; i++) {
            characters[i] = random.nextInt(13) == 0 ? special : (char) ('a' + random.nextInt(26));
        }
        return new String(characters).trim();
    }

    private static String digits(Random random, int length)
    {
        char[] characters = new char[length];
        for (int i = 0; i < length; i++) {
            characters[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(characters);
    }

    /** Letters (and some spaces) that bring an event of {@code currentSize} bytes to about {@code averageSize}, within ±20%. */
    private static String extra(Random random, int currentSize, int averageSize)
    {
        if (currentSize >= averageSize) {
            return "";
        }
        int wanted = averageSize - currentSize;
        int delta = (int) Math.round(wanted * 0.2);
        int size = wanted - delta + (delta == 0 ? 0 : random.nextInt(2 * delta));
        char[] characters = new char[size];
        for (int i = 0; i < size; i++) {
            characters[i] = random.nextInt(13) == 0 ? ' ' : (char) ('a' + random.nextInt(26));
        }
        return new String(characters);
    }
}
