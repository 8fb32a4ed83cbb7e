package io.ontul.server.http;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.engine.api.QueryResult;
import io.ontul.server.cli.JsonValues;
import io.ontul.server.flight.ColumnTypes;

/**
 * One statement's result read page by page over HTTP: rows become JSON arrays as they are read,
 * a page holds up to {@code pageSize} of them, and the rows of a batch that did not fit wait for
 * the next page. The last page sent is kept, so a client that lost an answer asks for it again.
 * Pages are read one at a time (the methods are synchronized); the result closes after its last
 * page, or when the client cancels or stops reading.
 */
final class HttpStatement
        implements AutoCloseable
{
    private final String user;
    private final QueryResult result;
    private final int pageSize;
    private final String columns;
    private final List<String> pending = new ArrayList<>();
    private int pageNumber;
    private String lastPage;
    private boolean finished;
    private boolean closed;
    private final java.util.function.LongSupplier nanoTime;
    private volatile long lastAccessNanos;

    HttpStatement(String user, QueryResult result, int pageSize)
    {
        this(user, result, pageSize, System::nanoTime);
    }

    HttpStatement(String user, QueryResult result, int pageSize, java.util.function.LongSupplier nanoTime)
    {
        this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
        this.lastAccessNanos = nanoTime.getAsLong();
        this.user = requireNonNull(user, "user is null");
        this.result = requireNonNull(result, "result is null");
        if (pageSize <= 0) {
            throw new IllegalArgumentException("pageSize must be positive: " + pageSize);
        }
        this.pageSize = pageSize;
        this.columns = columns(result);
    }

    String queryId()
    {
        return result.queryId();
    }

    String user()
    {
        return user;
    }

    long lastAccessNanos()
    {
        return lastAccessNanos;
    }

    /** Whether every row was sent: the statement needs no more holding. */
    synchronized boolean finished()
    {
        return finished;
    }

    /**
     * Page {@code number} as JSON: the next page, or the last one sent again.
     *
     * @throws HttpError when the page is neither
     */
    synchronized String page(int number)
    {
        lastAccessNanos = nanoTime.getAsLong();
        if (number == pageNumber && lastPage != null) {
            return lastPage;
        }
        if (number != pageNumber + 1 || finished) {
            throw HttpError.notFound("Page " + number + " of query " + queryId() + " is gone or not there yet: the next page is " + (finished ? "none (all rows were sent)" : pageNumber + 1));
        }
        if (closed) {
            throw HttpError.notFound("Query " + queryId() + " has no more pages: its result was closed");
        }
        if (result.isUpdate()) {
            lastPage = updatePage();
        }
        else {
            lastPage = rowPage(number);
        }
        pageNumber = number;
        return lastPage;
    }

    private String updatePage()
    {
        long count = 0;
        try {
            for (VectorSchemaRoot batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
                if (batch.getRowCount() > 0) {
                    count += ((BigIntVector) batch.getVector(0)).get(0);
                }
            }
        }
        finally {
            finish();
        }
        return "{\"id\":" + quote(queryId()) + ",\"state\":\"FINISHED\",\"updateCount\":" + count + "}";
    }

    private String rowPage(int number)
    {
        List<String> rows = new ArrayList<>();
        boolean exhausted = false;
        try {
            while (true) {
                int take = Math.min(pageSize - rows.size(), pending.size());
                rows.addAll(pending.subList(0, take));
                pending.subList(0, take).clear();
                if (rows.size() == pageSize) {
                    break;
                }
                if (!readBatch()) {
                    exhausted = true;
                    break;
                }
            }
            // a full page: read ahead, so that the last page says it is the last
            while (!exhausted && pending.isEmpty()) {
                exhausted = !readBatch();
            }
        }
        catch (RuntimeException e) {
            finish();
            throw e;
        }
        boolean more = !pending.isEmpty();
        if (!more) {
            finish();
        }
        StringBuilder page = new StringBuilder(64 + rows.size() * 32);
        page.append("{\"id\":").append(quote(queryId()))
                .append(",\"state\":").append(quote(more ? "RUNNING" : "FINISHED"))
                .append(",\"page\":").append(number)
                .append(",\"columns\":").append(columns)
                .append(",\"rows\":[");
        for (int index = 0; index < rows.size(); index++) {
            if (index > 0) {
                page.append(',');
            }
            page.append(rows.get(index));
        }
        page.append(']');
        if (more) {
            page.append(",\"nextUri\":").append(quote(nextUri(number + 1)));
        }
        return page.append('}').toString();
    }

    /** Reads the next batch into the pending rows, as JSON arrays; false at the end of the result. */
    private boolean readBatch()
    {
        VectorSchemaRoot batch = result.nextBatch();
        if (batch == null) {
            return false;
        }
        List<FieldVector> vectors = batch.getFieldVectors();
        StringBuilder row = new StringBuilder();
        for (int index = 0; index < batch.getRowCount(); index++) {
            row.setLength(0);
            row.append('[');
            for (int column = 0; column < vectors.size(); column++) {
                if (column > 0) {
                    row.append(',');
                }
                JsonValues.appendValue(row, vectors.get(column), index);
            }
            pending.add(row.append(']').toString());
        }
        return true;
    }

    String nextUri(int page)
    {
        return "/v1/queries/" + queryId() + "/results?page=" + page;
    }

    private void finish()
    {
        finished = true;
        close();
    }

    /** Stops the statement if it still runs. */
    void cancel()
    {
        result.cancel();
    }

    @Override
    public synchronized void close()
    {
        if (!closed) {
            closed = true;
            result.close();
        }
    }

    private static String columns(QueryResult result)
    {
        StringBuilder columns = new StringBuilder("[");
        List<Field> fields = result.schema().getFields();
        for (int index = 0; index < fields.size(); index++) {
            Field field = fields.get(index);
            ColumnTypes.SqlType type = ColumnTypes.sqlType(field);
            if (index > 0) {
                columns.append(',');
            }
            columns.append("{\"name\":").append(quote(field.getName())).append(",\"type\":").append(quote(typeText(type)))
                    .append(",\"nullable\":").append(field.isNullable()).append('}');
        }
        return columns.append(']').toString();
    }

    /** The type as SQL writes it: {@code DECIMAL(15,2)}, {@code VARCHAR(25)}, {@code BIGINT}. */
    static String typeText(ColumnTypes.SqlType type)
    {
        if (type.name().equals("DECIMAL") && type.precision() != null) {
            return "DECIMAL(" + type.precision() + "," + (type.scale() == null ? 0 : type.scale()) + ")";
        }
        if (type.name().endsWith("CHAR") && type.precision() != null) {
            return type.name() + "(" + type.precision() + ")";
        }
        return type.name();
    }

    static String quote(String text)
    {
        StringBuilder quoted = new StringBuilder(text.length() + 2);
        JsonValues.appendString(quoted, text);
        return quoted.toString();
    }
}
