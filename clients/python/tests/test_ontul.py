"""The Python SDK against a stand-in HTTP server (http.server, on a free port of 127.0.0.1) that
records what it is sent: the requests the REST API documents, paging, errors, job documents.
The SDK against a real server is tested from Java (io.ontul.server.sdk.TestOnePlanner)."""

import base64
import json
import os
import sys
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from ontul import OntulError, OntulSession, WindowSpec, duration_option  # noqa: E402


class StandIn(BaseHTTPRequestHandler):
    requests = []

    def log_message(self, *arguments):
        pass

    def _answer(self, status, body):
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _record(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        StandIn.requests.append((self.command, self.path, self.headers.get("Authorization"), body))
        return body

    def do_POST(self):
        body = self._record()
        if self.path == "/v1/login":
            expected = "Basic " + base64.b64encode(b"ann:secret").decode()
            if self.headers.get("Authorization") != expected:
                self._answer(401, {"error": {"code": "UNAUTHENTICATED", "category": "USER_ERROR", "message": "Wrong user name or password"}})
            else:
                self._answer(200, {"user": "ann", "token": "t0k3n", "expiresAt": "2030-01-01T00:00:00Z", "admin": False})
        elif self.path == "/v1/statements":
            if body["sql"].startswith("INSERT"):
                self._answer(200, {"id": "q2", "state": "FINISHED", "updateCount": 3})
            elif body["sql"] == "SELEC 1":
                self._answer(400, {"error": {"code": "SYNTAX_ERROR", "category": "USER_ERROR", "message": "line 1:1: Syntax error"}})
            else:
                self._answer(200, {"id": "q1", "state": "RUNNING", "page": 1, "columns": [{"name": "n", "type": "BIGINT", "nullable": False}],
                                   "rows": [[1], [2]], "nextUri": "/v1/queries/q1/results?page=2"})
        elif self.path == "/v1/jobs":
            self._answer(201, {"sql": "CREATE STREAMING JOB ...", "job": {"name": body["name"], "state": "RUNNING"}})
        elif self.path.endswith("/stop"):
            self._answer(200, {"name": "j", "state": "STOPPED"})
        else:
            self._answer(404, {"error": {"code": "NOT_FOUND", "category": "USER_ERROR", "message": "No such endpoint"}})

    def do_GET(self):
        self._record()
        if self.path == "/v1/queries/q1/results?page=2":
            self._answer(200, {"id": "q1", "state": "FINISHED", "page": 2, "columns": [{"name": "n", "type": "BIGINT", "nullable": False}], "rows": [[3]]})
        elif self.path == "/v1/jobs/my%20job":
            self._answer(200, {"name": "my job", "state": "RUNNING"})
        else:
            self._answer(404, {"error": {"code": "NOT_FOUND", "category": "USER_ERROR", "message": "Streaming job 'x' does not exist"}})


class TestOntulSession(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
        cls.thread = threading.Thread(target=cls.server.serve_forever, daemon=True)
        cls.thread.start()
        cls.port = cls.server.server_address[1]

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def setUp(self):
        StandIn.requests.clear()

    def session(self):
        return OntulSession("127.0.0.1", self.port, user="ann", password="secret")

    def test_login_then_bearer_token(self):
        session = self.session()
        self.assertEqual(session.token, "t0k3n")
        session.sql("SELECT 1")
        self.assertEqual(StandIn.requests[-1][2], "Bearer t0k3n")

    def test_wrong_password(self):
        with self.assertRaises(OntulError) as raised:
            OntulSession("127.0.0.1", self.port, user="ann", password="wrong")
        self.assertEqual(raised.exception.status, 401)
        self.assertEqual(raised.exception.message, "Wrong user name or password")

    def test_sql_reads_every_page(self):
        result = self.session().sql("SELECT n FROM t", page_size=2)
        self.assertEqual(result.rows, [[1], [2], [3]])
        self.assertEqual(result.as_dicts(), [{"n": 1}, {"n": 2}, {"n": 3}])
        self.assertEqual(StandIn.requests[1][3], {"sql": "SELECT n FROM t", "pageSize": 2})
        self.assertEqual(StandIn.requests[2][1], "/v1/queries/q1/results?page=2")

    def test_update_count_and_errors(self):
        session = self.session()
        self.assertEqual(session.sql("INSERT INTO t VALUES 1").update_count, 3)
        with self.assertRaises(OntulError) as raised:
            session.sql("SELEC 1")
        self.assertEqual((raised.exception.status, raised.exception.code, raised.exception.message), (400, "SYNTAX_ERROR", "line 1:1: Syntax error"))

    def test_a_job_is_sent_as_a_job_document(self):
        session = self.session()
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
        self.assertEqual(name, "order_totals")
        self.assertEqual(StandIn.requests[-1][3], {
            "name": "order_totals", "type": "STREAMING",
            "config": {"source.type": "kafka", "source.table": "kafka.default.orders", "sink.type": "iceberg", "sink.tableName": "iceberg.lake.totals",
                       "checkpoint.interval": "10s", "parallelism": "4"},
            "operations": [{"type": "FILTER", "condition": "amount > 100"},
                           {"type": "WINDOW", "window": "TUMBLING(SIZE 10 SECONDS)", "timeColumn": "event_time"},
                           {"type": "GROUP_BY", "columns": ["category"]},
                           {"type": "AGG", "expressions": ["SUM(amount) AS total", "COUNT(*) AS cnt"]}]})

    def test_jobs_by_name(self):
        session = self.session()
        self.assertEqual(session.job("my job").status()["state"], "RUNNING")
        self.assertEqual(session.job("j").stop(), "STOPPED")
        with self.assertRaises(OntulError) as raised:
            session.job("x").status()
        self.assertEqual(raised.exception.code, "NOT_FOUND")

    def test_window_and_duration_texts(self):
        self.assertEqual(WindowSpec.tumbling(minutes=1), "TUMBLING(SIZE 1 MINUTES)")
        self.assertEqual(WindowSpec.sliding({"minutes": 1}, {"seconds": 10}), "SLIDING(SIZE 1 MINUTES, SLIDE 10 SECONDS)")
        self.assertEqual(WindowSpec.session(milliseconds=1500), "SESSION(GAP 1500 MILLISECONDS)")
        self.assertEqual(duration_option(250), "250ms")
        self.assertEqual(duration_option(300_000), "5m")
        with self.assertRaises(ValueError):
            WindowSpec.tumbling(seconds=0)
        with self.assertRaises(ValueError):
            OntulSession("127.0.0.1", self.port)


if __name__ == "__main__":
    unittest.main()
