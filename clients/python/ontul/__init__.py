"""Ontul's Python SDK: SQL and streaming jobs over the server's REST API, standard library only.

    from ontul import OntulSession, WindowSpec

    session = OntulSession("127.0.0.1", 47480, user="admin", password="...")
    rows = session.sql("SELECT n_name FROM tpch.tiny.nation").rows
    name = (session.stream_source("kafka.default.orders")
            .filter("amount > 100")
            .window(WindowSpec.tumbling(seconds=10), "event_time")
            .group_by("category")
            .agg("SUM(amount) AS total", "COUNT(*) AS cnt")
            .sink_iceberg("iceberg.lake.totals")
            .commit_interval(10_000)
            .parallelism(4)
            .name("order_totals")
            .start())
    session.job(name).stop()

A job is sent as the REST API's job document (POST /v1/jobs); the server turns it into the same
CREATE STREAMING JOB statement the Java SDK sends and a user would type.
"""

import base64
import json
import ssl
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["OntulSession", "OntulError", "Result", "StreamBuilder", "Job", "WindowSpec"]
__version__ = "0.1.0"


class OntulError(Exception):
    """A request the server refused: its HTTP status, error code, category and message."""

    def __init__(self, status, code, category, message):
        super().__init__(message)
        self.status = status
        self.code = code
        self.category = category
        self.message = message


class Result:
    """A statement's whole result: columns (name and SQL type), rows (lists), or an update count."""

    def __init__(self, query_id, columns, rows, update_count=None):
        self.query_id = query_id
        self.columns = columns
        self.rows = rows
        self.update_count = update_count

    def as_dicts(self):
        names = [column["name"] for column in self.columns]
        return [dict(zip(names, row)) for row in self.rows]


class WindowSpec:
    """Event-time windows in the text of job documents."""

    @staticmethod
    def _size(milliseconds=0, seconds=0, minutes=0, hours=0):
        total = milliseconds + 1000 * (seconds + 60 * (minutes + 60 * hours))
        if total <= 0:
            raise ValueError("a window's size must be positive")
        if total % 3_600_000 == 0:
            return "%d HOURS" % (total // 3_600_000)
        if total % 60_000 == 0:
            return "%d MINUTES" % (total // 60_000)
        if total % 1000 == 0:
            return "%d SECONDS" % (total // 1000)
        return "%d MILLISECONDS" % total

    @staticmethod
    def tumbling(**size):
        return "TUMBLING(SIZE %s)" % WindowSpec._size(**size)

    @staticmethod
    def sliding(size, slide):
        """size and slide as dicts of keyword arguments: sliding({"minutes": 1}, {"seconds": 10})."""
        return "SLIDING(SIZE %s, SLIDE %s)" % (WindowSpec._size(**size), WindowSpec._size(**slide))

    @staticmethod
    def session(**gap):
        return "SESSION(GAP %s)" % WindowSpec._size(**gap)


def duration_option(milliseconds):
    """Milliseconds as a streaming job's option text: 10s, 250ms, 5m (the Java SDK's rule)."""
    milliseconds = int(milliseconds)
    if milliseconds > 0 and milliseconds % 60_000 == 0:
        return "%dm" % (milliseconds // 60_000)
    if milliseconds % 1000 == 0:
        return "%ds" % (milliseconds // 1000)
    return "%dms" % milliseconds


class OntulSession:
    """A user of an Ontul server's REST API (its HTTP port, 47480 by default)."""

    def __init__(self, host, port=47480, token=None, user=None, password=None, tls=False, cafile=None, timeout=300):
        if (token is None) == (user is None):
            raise ValueError("log in with either token=... or user=... and password=...")
        self._base = "%s://%s:%d" % ("https" if tls else "http", host, port)
        self._timeout = timeout
        self._context = ssl.create_default_context(cafile=cafile) if tls else None
        if token is None:
            credentials = base64.b64encode(("%s:%s" % (user, password)).encode("utf-8")).decode("ascii")
            token = self._request("POST", "/v1/login", authorization="Basic " + credentials)["token"]
        self._token = token

    @property
    def token(self):
        return self._token

    def _request(self, method, path, body=None, authorization=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self._base + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        request.add_header("Authorization", authorization or "Bearer " + self._token)
        try:
            with urllib.request.urlopen(request, timeout=self._timeout, context=self._context) as response:
                text = response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            try:
                details = json.loads(text)["error"]
            except (ValueError, KeyError, TypeError):
                details = {"code": "HTTP_%d" % error.code, "category": "INTERNAL", "message": text or error.reason}
            raise OntulError(error.code, details.get("code"), details.get("category"), details.get("message")) from None
        return json.loads(text) if text else None

    def sql(self, statement, catalog=None, schema=None, properties=None, page_size=10_000):
        """Runs a statement and reads all its pages."""
        body = {"sql": statement, "pageSize": page_size}
        if catalog is not None:
            body["catalog"] = catalog
        if schema is not None:
            body["schema"] = schema
        if properties:
            body["properties"] = properties
        page = self._request("POST", "/v1/statements", body)
        if "updateCount" in page:
            return Result(page["id"], [{"name": "rows", "type": "BIGINT"}], [[page["updateCount"]]], page["updateCount"])
        columns = page["columns"]
        rows = list(page["rows"])
        while "nextUri" in page:
            page = self._request("GET", page["nextUri"])
            rows.extend(page["rows"])
        return Result(page["id"], columns, rows)

    def queries(self):
        return self._request("GET", "/v1/queries")["queries"]

    def cancel(self, query_id):
        self._request("DELETE", "/v1/queries/" + urllib.parse.quote(query_id, safe=""))

    def stream_source(self, table):
        """Starts a streaming job that reads the Kafka table catalog.schema.table."""
        return StreamBuilder(self, table)

    def create_job(self, document):
        """Creates a job from a job document; returns the server's answer (the statement it ran, the job)."""
        return self._request("POST", "/v1/jobs", document)

    def jobs(self):
        return self._request("GET", "/v1/jobs")["jobs"]

    def job(self, name):
        return Job(self, name)


class Job:
    """A streaming job by name."""

    def __init__(self, session, name):
        self._session = session
        self.name = name

    def _path(self, suffix=""):
        return "/v1/jobs/" + urllib.parse.quote(self.name, safe="") + suffix

    def status(self):
        """DESCRIBE STREAMING JOB as a dict: state, records, tasks, checkpoints, ..."""
        return self._session._request("GET", self._path())

    def stop(self):
        return self._session._request("POST", self._path("/stop"))["state"]

    def start(self):
        return self._session._request("POST", self._path("/start"))["state"]

    def drop(self):
        self._session._request("DELETE", self._path())


class StreamBuilder:
    """Describes a streaming job step by step; start() creates it and returns its name."""

    def __init__(self, session, table):
        self._session = session
        self._table = table
        self._operations = []
        self._config = {}
        self._sink = None
        self._name = None

    def filter(self, condition):
        self._operations.append({"type": "FILTER", "condition": condition})
        return self

    def window(self, spec, time_column):
        self._operations.append({"type": "WINDOW", "window": spec, "timeColumn": time_column})
        return self

    def group_by(self, *columns):
        self._operations.append({"type": "GROUP_BY", "columns": list(columns)})
        return self

    def agg(self, *expressions):
        self._operations.append({"type": "AGG", "expressions": list(expressions)})
        return self

    def select(self, *expressions):
        self._operations.append({"type": "SELECT", "expressions": list(expressions)})
        return self

    def _sink_to(self, kind, table):
        self._sink = (kind, table)
        return self

    def sink_iceberg(self, table):
        return self._sink_to("iceberg", table)

    def sink_jdbc(self, table):
        return self._sink_to("jdbc", table)

    def sink_kafka(self, table):
        return self._sink_to("kafka", table)

    def commit_interval(self, milliseconds):
        return self.option("checkpoint.interval", duration_option(milliseconds))

    def parallelism(self, tasks):
        return self.option("parallelism", str(int(tasks)))

    def option(self, name, value):
        self._config[name] = str(value)
        return self

    def name(self, name):
        self._name = name
        return self

    def document(self):
        """The job document POST /v1/jobs takes."""
        if self._sink is None:
            raise ValueError("name where the job writes: sink_iceberg(...), sink_jdbc(...) or sink_kafka(...)")
        if self._name is None:
            import uuid
            self._name = "job_" + uuid.uuid4().hex[:12]
        config = {"source.type": "kafka", "source.table": self._table, "sink.type": self._sink[0], "sink.tableName": self._sink[1]}
        config.update(self._config)
        return {"name": self._name, "type": "STREAMING", "config": config, "operations": list(self._operations)}

    def start(self):
        """Creates the job (it starts at once); returns its name."""
        document = self.document()
        self.last_response = self._session.create_job(document)
        return document["name"]
