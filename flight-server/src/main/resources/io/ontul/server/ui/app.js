// The Ontul Admin UI: plain JavaScript over the REST API (/v1), no build step. The token from
// POST /v1/login lives in this tab's sessionStorage only; every page is drawn with DOM calls and
// textContent, never from HTML strings, so no value from the server is ever run as markup.
"use strict";

const TOKEN_KEY = "ontul.token";
const REFRESH_MS = 2000;
const HISTORY_SECONDS = 300;

let timers = [];
let charts = [];
let me = null;

// ---- small helpers

function el(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name === "class") {
      element.className = value;
    } else if (name.startsWith("on")) {
      element.addEventListener(name.substring(2), value);
    } else if (value !== null && value !== undefined && value !== false) {
      element.setAttribute(name, value === true ? "" : value);
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) {
      continue;
    }
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

function bytes(value) {
  if (value === null || value === undefined || value === "") {
    return "";
  }
  let number = Number(value);
  const units = ["B", "KB", "MB", "GB", "TB"];
  let unit = 0;
  while (number >= 1024 && unit < units.length - 1) {
    number /= 1024;
    unit++;
  }
  return (unit === 0 ? number : number.toFixed(1)) + " " + units[unit];
}

function duration(seconds) {
  seconds = Math.floor(seconds);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60;
  const s = seconds % 60;
  return (h > 0 ? h + "h " : "") + (h > 0 || m > 0 ? m + "m " : "") + s + "s";
}

function every(milliseconds, action) {
  action();
  timers.push(setInterval(action, milliseconds));
}

function clearPage() {
  timers.forEach(clearInterval);
  timers = [];
  charts.forEach(chart => chart.destroy());
  charts = [];
  const page = document.getElementById("page");
  page.replaceChildren();
  return page;
}

function errorLine(error) {
  return el("p", {class: "error", role: "alert"}, error.message || String(error));
}

// ---- the REST API

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error.message : "HTTP " + status);
    this.status = status;
    this.code = body && body.error ? body.error.code : null;
  }
}

async function api(method, path, body) {
  const headers = {"Accept": "application/json"};
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) {
    headers["Authorization"] = "Bearer " + token;
  }
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch (ignored) {
    json = null;
  }
  if (response.status === 401 && !path.endsWith("/login")) {
    sessionStorage.removeItem(TOKEN_KEY);
    showLogin("Your session ended: log in again.");
    throw new ApiError(401, json);
  }
  if (!response.ok) {
    throw new ApiError(response.status, json);
  }
  return json;
}

async function runSql(sql, pageSize) {
  return api("POST", "/v1/statements", {sql, pageSize: pageSize || 500});
}

// ---- login

function showLogin(message) {
  clearPage();
  document.getElementById("app").hidden = true;
  document.getElementById("login").hidden = false;
  document.getElementById("login-error").textContent = message || "";
  document.getElementById("login-user").focus();
}

async function login(event) {
  event.preventDefault();
  const user = document.getElementById("login-user").value;
  const password = document.getElementById("login-password").value;
  const error = document.getElementById("login-error");
  error.textContent = "";
  try {
    const response = await fetch("/v1/login", {method: "POST", headers: {"Authorization": "Basic " + btoa(unescape(encodeURIComponent(user + ":" + password)))}});
    const body = await response.json();
    if (!response.ok) {
      throw new ApiError(response.status, body);
    }
    sessionStorage.setItem(TOKEN_KEY, body.token);
    document.getElementById("login-password").value = "";
    await start();
  } catch (e) {
    error.textContent = e.message;
  }
}

async function start() {
  try {
    me = await api("GET", "/v1/info");
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) {
      showLogin(e.message);
    }
    return;
  }
  document.getElementById("login").hidden = true;
  document.getElementById("app").hidden = false;
  document.getElementById("who").textContent = me.user + (me.admin ? " (admin)" : "");
  document.querySelectorAll(".admin-only").forEach(link => link.hidden = !me.admin);
  route();
}

// ---- pages

const PAGES = {overview, queries, jobs, job, catalogs, sql, nodes, users};

function route() {
  if (!sessionStorage.getItem(TOKEN_KEY)) {
    showLogin();
    return;
  }
  const parts = (location.hash || "#/overview").substring(2).split("/").map(decodeURIComponent);
  const name = PAGES[parts[0]] ? parts[0] : "overview";
  document.querySelectorAll("header nav a").forEach(link => link.classList.toggle("active", link.dataset.page === (name === "job" ? "jobs" : name)));
  const page = clearPage();
  PAGES[name](page, ...parts.slice(1));
}

function card(label, value, id) {
  return el("div", {class: "card"}, el("div", {class: "label"}, label), el("div", {class: "value", id}, value));
}

function overview(page) {
  page.append(el("h1", {}, "Overview"));
  const cards = el("div", {class: "cards"});
  const error = el("div");
  page.append(cards, error);
  every(REFRESH_MS, async () => {
    try {
      const info = await api("GET", "/v1/info");
      const jobs = Object.entries(info.jobsByState).map(([state, count]) => count + " " + state.toLowerCase()).join(", ") || "none";
      cards.replaceChildren(
        card("Uptime", duration(info.uptimeSeconds), "overview-uptime"),
        card("Running queries", info.queriesRunning, "overview-running"),
        card("Queued queries", info.queriesQueued),
        card("Statements since start", info.queriesStarted + " (" + info.queriesFailed + " failed)"),
        card("Streaming jobs", jobs, "overview-jobs"),
        card("Memory", bytes(info.memoryAllocatedBytes) + " of " + bytes(info.memoryLimitBytes)),
        card("Spill on disk", bytes(info.spillOnDiskBytes) + " (" + bytes(info.spillWrittenBytes) + " written)"),
        card("Version", info.version));
      error.replaceChildren();
    } catch (e) {
      error.replaceChildren(errorLine(e));
    }
  });
}

function table(columns, rows, rowAttributes) {
  return el("table", {},
    el("thead", {}, el("tr", {}, columns.map(column => el("th", {class: column.num ? "num" : null}, column.title)))),
    el("tbody", {}, rows.map(row => el("tr", rowAttributes ? rowAttributes(row) : {},
      columns.map(column => {
        const value = column.value(row);
        return el("td", {class: column.num ? "num" : column.cls ? column.cls(row) : null, title: column.tip ? column.tip(row) : null},
          value instanceof Node || Array.isArray(value) ? value : value === null || value === undefined ? "" : String(value));
      })))));
}

function queries(page) {
  page.append(el("h1", {}, "Queries"), el("p", {class: "muted"}, "Running and recent statements" + (me.admin ? " of every user." : " of yours.")));
  const holder = el("div");
  const plan = el("div", {id: "query-plan"});
  page.append(holder, plan);
  every(REFRESH_MS, async () => {
    try {
      const list = (await api("GET", "/v1/queries")).queries.slice().reverse();
      holder.replaceChildren(table([
        {title: "Query id", value: q => q.id, cls: () => "mono"},
        {title: "User", value: q => q.user},
        {title: "State", value: q => q.state, cls: q => "state-" + q.state},
        {title: "Text", value: q => q.query, cls: () => "text mono", tip: q => q.query},
        {title: "Rows", value: q => q.rows, num: true},
        {title: "Peak memory", value: q => bytes(q.peakMemoryBytes), num: true},
        {title: "Spilled", value: q => bytes(q.spilledBytes), num: true},
        {title: "Elapsed", value: q => (q.elapsedMillis / 1000).toFixed(1) + " s", num: true},
        {title: "", value: q => el("div", {class: "actions"},
          q.state === "RUNNING" || q.state === "QUEUED"
            ? el("button", {class: "danger cancel", onclick: () => cancelQuery(q.id, holder)}, "Cancel") : null,
          el("button", {class: "secondary plan", onclick: () => showPlan(q, plan)}, "Plan"))},
      ], list, q => ({"data-query-id": q.id, "data-state": q.state})));
    } catch (e) {
      holder.replaceChildren(errorLine(e));
    }
  });
}

async function cancelQuery(id, holder) {
  try {
    await api("DELETE", "/v1/queries/" + encodeURIComponent(id));
  } catch (e) {
    holder.prepend(errorLine(e));
  }
}

async function showPlan(query, holder) {
  holder.replaceChildren(el("h2", {}, "Plan of " + query.id));
  try {
    const result = await runSql("EXPLAIN " + query.query.replace(/;\s*$/, ""), 10000);
    holder.append(el("pre", {}, result.rows.map(row => row.join(" ")).join("\n")));
  } catch (e) {
    holder.append(errorLine(e));
  }
}

function jobActions(name, state, after) {
  const act = async (method, path) => {
    try {
      await api(method, path);
      after();
    } catch (e) {
      alert(e.message);
    }
  };
  const running = state === "RUNNING" || state === "RESTARTING";
  return el("div", {class: "actions"},
    running ? el("button", {class: "secondary stop", onclick: () => act("POST", "/v1/jobs/" + encodeURIComponent(name) + "/stop")}, "Stop")
      : el("button", {class: "secondary start", onclick: () => act("POST", "/v1/jobs/" + encodeURIComponent(name) + "/start")}, "Start"),
    el("button", {class: "danger drop", onclick: () => {
      if (confirm("Drop streaming job " + name + " and its checkpoints?")) {
        act("DELETE", "/v1/jobs/" + encodeURIComponent(name)).then(() => { location.hash = "#/jobs"; });
      }
    }}, "Drop"));
}

function jobs(page) {
  page.append(el("h1", {}, "Streaming jobs"));
  const holder = el("div");
  page.append(holder);
  const refresh = async () => {
    try {
      const list = (await api("GET", "/v1/jobs")).jobs;
      holder.replaceChildren(list.length === 0 ? el("p", {class: "muted"}, "No streaming jobs. Create one with CREATE STREAMING JOB on the SQL page or POST /v1/jobs.")
        : table([
          {title: "Name", value: j => el("a", {href: "#/job/" + encodeURIComponent(j.name)}, j.name)},
          {title: "State", value: j => j.state, cls: j => "state-" + j.state},
          {title: "Parallelism", value: j => j.parallelism, num: true},
          {title: "Records in", value: j => j.records_in, num: true},
          {title: "Records out", value: j => j.records_out, num: true},
          {title: "Source lag", value: j => j.source_lag, num: true},
          {title: "Watermark", value: j => j.watermark},
          {title: "Last checkpoint", value: j => j.last_checkpoint_time},
          {title: "Owner", value: j => j.owner},
          {title: "", value: j => jobActions(j.name, j.state, refresh)},
        ], list, j => ({"data-job": j.name, "data-state": j.state})));
    } catch (e) {
      holder.replaceChildren(errorLine(e));
    }
  };
  every(REFRESH_MS, refresh);
}

function chart(title, id, series, yLabel) {
  const box = el("div", {class: "card chart"}, el("h2", {}, title));
  const target = el("div", {id, "data-points": "0"});
  box.append(target);
  const plot = new uPlot({
    width: 440, height: 220,
    scales: {x: {time: true}},
    axes: [{}, {label: yLabel}],
    series: [{}].concat(series.map((label, index) => ({label, stroke: ["#2a62c9", "#1e7b3a", "#b3261e"][index], width: 2}))),
  }, [[]].concat(series.map(() => [])), target);
  charts.push(plot);
  return {box, target, plot};
}

function job(page, name) {
  page.append(el("h1", {}, "Streaming job ", el("span", {class: "mono"}, name)));
  const summary = el("div", {class: "cards"});
  const actions = el("div", {class: "toolbar"});
  const error = el("div");
  const lag = chart("Source lag and throughput (last 5 minutes)", "lag-chart", ["lag (records)", "records in / s"], "records");
  const checkpoints = chart("Checkpoint durations", "checkpoint-chart", ["duration (ms)"], "ms");
  const details = el("div");
  page.append(summary, actions, error, el("div", {class: "charts"}, lag.box, checkpoints.box), details);
  const times = [];
  const lags = [];
  const rates = [];
  let previous = null;
  every(REFRESH_MS, async () => {
    let j;
    try {
      j = await api("GET", "/v1/jobs/" + encodeURIComponent(name));
      error.replaceChildren();
    } catch (e) {
      error.replaceChildren(errorLine(e));
      return;
    }
    const now = Date.now() / 1000;
    const recordsIn = Number(j.records_in);
    times.push(now);
    lags.push(j.source_lag === null || j.source_lag === undefined ? null : Number(j.source_lag));
    rates.push(previous ? Math.max(0, (recordsIn - previous.records) / (now - previous.time)) : null);
    previous = {time: now, records: recordsIn};
    while (times.length > 0 && times[0] < now - HISTORY_SECONDS) {
      times.shift();
      lags.shift();
      rates.shift();
    }
    lag.plot.setData([times.slice(), lags.slice(), rates.slice()]);
    lag.target.dataset.points = String(times.length);
    const history = j.checkpointHistory || [];
    checkpoints.plot.setData([history.map(c => Date.parse(c.completedAt) / 1000), history.map(c => c.durationMillis)]);
    checkpoints.target.dataset.points = String(history.length);

    summary.replaceChildren(
      card("State", j.state, "job-state"),
      card("Parallelism", j.parallelism),
      card("Uptime", j.uptime || ""),
      card("Records in / out", j.records_in + " / " + j.records_out),
      card("Rejected / late", j.records_rejected + " / " + j.records_late),
      card("Source lag", j.source_lag === null ? "unknown" : j.source_lag, "job-lag"),
      card("Watermark", j.watermark || "none"),
      card("Last checkpoint", (j.last_checkpoint_id || "none") + (j.last_checkpoint_duration_ms ? " (" + j.last_checkpoint_duration_ms + " ms, " + bytes(j.last_checkpoint_bytes) + ")" : "")));
    actions.replaceChildren(jobActions(name, j.state, () => {}));
    if (j.last_error) {
      actions.append(el("span", {class: "error"}, j.last_error));
    }
    details.replaceChildren(
      el("h2", {}, "Tasks"), el("pre", {class: "mono", id: "job-tasks"}, (j.tasks || []).join("\n") || "none running"),
      el("h2", {}, "Source lag per partition"), el("pre", {class: "mono", id: "job-partition-lags"},
        Object.entries(j.partitionLags || {}).map(([partition, lag]) => "partition " + partition + ": " + lag).join("\n") || "unknown"),
      el("h2", {}, "Definition"), el("pre", {class: "mono"}, j.definition || ""),
      el("h2", {}, "Plan"), el("pre", {class: "mono"}, (j.plans || []).join("\n")));
  });
}

function catalogs(page) {
  page.append(el("h1", {}, "Catalogs"));
  const tree = el("div", {class: "tree"});
  page.append(tree);
  const branch = (label, load, render) => {
    const item = el("li");
    const children = el("ul");
    let loaded = false;
    const toggle = el("button", {class: "link", onclick: async () => {
      item.classList.toggle("open");
      children.hidden = !item.classList.contains("open");
      if (!loaded) {
        loaded = true;
        try {
          children.replaceChildren(...render(await load()));
        } catch (e) {
          children.replaceChildren(el("li", {}, errorLine(e)));
        }
      }
    }}, label);
    children.hidden = true;
    item.append(toggle, children);
    return item;
  };
  const path = (...parts) => parts.map(encodeURIComponent).join("/");
  api("GET", "/v1/catalogs").then(body => {
    tree.append(el("ul", {}, body.catalogs.map(catalog => branch(catalog,
      () => api("GET", "/v1/catalogs/" + path(catalog) + "/schemas"),
      schemas => schemas.schemas.map(schema => branch(schema,
        () => api("GET", "/v1/catalogs/" + path(catalog) + "/schemas/" + path(schema) + "/tables"),
        tables => tables.tables.map(name => branch(name,
          () => api("GET", "/v1/catalogs/" + path(catalog) + "/schemas/" + path(schema) + "/tables/" + path(name)),
          columns => [el("li", {}, table(Object.keys(columns.columns[0] || {}).map(key => ({title: key, value: row => row[key]})), columns.columns))]))))))));
  }).catch(e => tree.append(errorLine(e)));
}

function sql(page) {
  page.append(el("h1", {}, "SQL"));
  const editor = el("textarea", {id: "sql-editor", class: "editor", spellcheck: "false", placeholder: "SELECT * FROM tpch.tiny.nation"});
  editor.value = sessionStorage.getItem("ontul.sql") || "SELECT * FROM tpch.tiny.nation";
  const run = el("button", {id: "sql-run"}, "Run");
  const more = el("button", {id: "sql-more", class: "secondary", hidden: true}, "More rows");
  const status = el("span", {id: "sql-status", class: "muted"});
  const error = el("p", {id: "sql-error", class: "error", role: "alert"});
  const result = el("div", {id: "sql-result", class: "grid-wrap"});
  page.append(editor, el("div", {class: "toolbar"}, run, more, status, el("span", {class: "muted"}, "Ctrl+Enter runs")), error, result);
  let next = null;
  let body = null;
  let count = 0;
  const show = (page, first) => {
    if (page.updateCount !== undefined) {
      status.textContent = page.updateCount + " row(s) changed";
      result.replaceChildren();
      next = null;
      more.hidden = true;
      return;
    }
    if (first) {
      body = el("tbody");
      count = 0;
      result.replaceChildren(el("table", {}, el("thead", {}, el("tr", {}, page.columns.map(column => el("th", {title: column.type}, column.name)))), body));
    }
    for (const row of page.rows) {
      body.append(el("tr", {}, row.map(value => el("td", {class: typeof value === "number" ? "num" : null},
        value === null ? "NULL" : typeof value === "object" ? JSON.stringify(value) : String(value)))));
    }
    count += page.rows.length;
    next = page.nextUri || null;
    more.hidden = !next;
    status.textContent = count + " row(s)" + (next ? ", more to read" : "") + " · query " + page.id;
  };
  const execute = async () => {
    const text = editor.value.trim().replace(/;\s*$/, "");
    if (!text) {
      return;
    }
    sessionStorage.setItem("ontul.sql", editor.value);
    error.textContent = "";
    status.textContent = "running…";
    run.disabled = true;
    try {
      show(await runSql(text, 500), true);
    } catch (e) {
      error.textContent = e.message;
      status.textContent = "";
      result.replaceChildren();
    } finally {
      run.disabled = false;
    }
  };
  run.addEventListener("click", execute);
  editor.addEventListener("keydown", event => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      execute();
    }
  });
  more.addEventListener("click", async () => {
    if (!next) {
      return;
    }
    try {
      show(await api("GET", next), false);
    } catch (e) {
      error.textContent = e.message;
    }
  });
}

function listPage(page, title, path, key) {
  page.append(el("h1", {}, title));
  const holder = el("div");
  page.append(holder);
  every(REFRESH_MS * 2, async () => {
    try {
      const rows = (await api("GET", path))[key];
      const columns = Object.keys(rows[0] || {}).map(column => ({title: column, value: row => row[column], num: typeof (rows[0] || {})[column] === "number"}));
      holder.replaceChildren(rows.length === 0 ? el("p", {class: "muted"}, "None.") : table(columns, rows));
    } catch (e) {
      holder.replaceChildren(errorLine(e));
    }
  });
}

function nodes(page) {
  listPage(page, "Nodes", "/v1/nodes", "nodes");
}

function users(page) {
  listPage(page, "Users", "/v1/users", "users");
}

// ---- start

document.getElementById("login-form").addEventListener("submit", login);
document.getElementById("logout").addEventListener("click", () => {
  sessionStorage.removeItem(TOKEN_KEY);
  showLogin();
});
window.addEventListener("hashchange", () => {
  if (me) {
    route();
  }
});
if (sessionStorage.getItem(TOKEN_KEY)) {
  start();
} else {
  showLogin();
}
