// The playground page of `palisade serve`: every call goes to the public
// API of the server that served the page, with the key typed into the page.
// Text from requests and decisions is only ever set as text (textContent),
// never as markup.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  // Example requests, one or more per stage. Credentials are spelt with a
  // \u escape so that this file holds none.
  const EXAMPLES = [
    {
      label: "input: a prompt",
      request: {
        stage: "input",
        content: "Summarise the release notes and list the breaking changes.",
      },
    },
    {
      label: "output: personal data",
      request: {
        stage: "output",
        content: "Sure: write to jane.doe@northwind-mail.com or call +1 415 555 2671.",
      },
    },
    {
      label: "tool_use: rm -rf",
      request: {
        stage: "tool_use",
        tool: { name: "Bash", arguments: { command: "cd build && rm -rf / --no-preserve-root" } },
      },
    },
    {
      label: "tool_use: read ~/.ssh",
      request: {
        stage: "tool_use",
        tool: { name: "Read", arguments: { file_path: "/home/dev/.ssh/id_ed25519" } },
        context: { home: "/home/dev", workspaceRoot: "/home/dev/project" },
      },
    },
    {
      label: "tool_output: a credential",
      request: {
        stage: "tool_output",
        tool: { name: "Read", output: "AWS_ACCESS_KEY_ID=AKI\u0041TZWH2NUO6OXQBF6D\nREGION=eu-west-1" },
      },
    },
    {
      label: "action: delete outside the workspace",
      request: {
        stage: "action",
        action: {
          type: "file.delete",
          operation: "delete",
          resource: { kind: "file" },
          targets: [{ uri: "file:///var/log/app.log" }],
        },
        context: { workspaceRoot: "/home/dev/project" },
        interactive: false,
      },
    },
  ];

  const STREAM_TEXT =
    "Here is the key you asked for: AKI\u0041TZWH2NUO6OXQBF6D. " +
    "Mail jane.doe@northwind-mail.com if the deploy fails.";

  // ---- calls ---------------------------------------------------------------

  function headers(extra) {
    const h = Object.assign({}, extra || {});
    const key = $("key").value.trim();
    const tenant = $("tenant").value.trim();
    if (key) h["X-API-Key"] = key;
    if (tenant) h["X-Tenant-ID"] = tenant;
    return h;
  }

  // The service's JSON error body as one line: `status code: message`.
  async function failure(response) {
    let detail = response.statusText;
    try {
      const body = await response.json();
      if (body && body.error) {
        detail = body.error.code + ": " + body.error.message;
        if (Array.isArray(body.error.details)) detail += " " + body.error.details.join("; ");
      }
    } catch (_) {
      /* not JSON: the status text says it */
    }
    let hint = "";
    if (response.status === 401) hint = " (type an API key above)";
    if (response.status === 403) hint = " (this key may not do that)";
    return "HTTP " + response.status + ": " + detail + hint;
  }

  async function getJson(path) {
    const response = await fetch(path, { headers: headers() });
    if (!response.ok) throw new Error(await failure(response));
    return response.json();
  }

  // ---- small DOM helpers ---------------------------------------------------

  function el(tag, text, className) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (className) e.className = className;
    return e;
  }

  function row(cells) {
    const tr = document.createElement("tr");
    for (const c of cells) tr.appendChild(c instanceof Node ? wrap("td", c) : el("td", c));
    return tr;
  }

  function wrap(tag, child) {
    const e = document.createElement(tag);
    e.appendChild(child);
    return e;
  }

  function badge(kind) {
    return el("span", kind, "decision decision-" + kind);
  }

  // ---- policy --------------------------------------------------------------

  async function loadPolicy() {
    const status = $("policy-status");
    status.textContent = "Loading…";
    status.classList.remove("error");
    try {
      const view = await getJson("/v1/policy");
      status.textContent =
        "Tenant " + view.tenant + ": " + view.checks.length + " checks, from the " +
        (view.origin === "file" ? "policy file" : "embedded default policy") + ".";
      const body = $("checks").tBodies[0];
      body.replaceChildren();
      for (const c of view.checks) {
        const id = el("span", c.id, "check-id");
        if (c.name) id.title = c.name;
        const tr = row([id, c.type, c.stages.join(", "), c.on_fail, c.severity]);
        if (!c.enabled) tr.className = "disabled";
        tr.dataset.check = c.id;
        body.appendChild(tr);
      }
      $("checks").hidden = false;
      $("policy-text").textContent = view.text;
      $("policy-source").hidden = false;
    } catch (e) {
      status.textContent = e.message;
      status.classList.add("error");
      $("checks").hidden = true;
      $("policy-source").hidden = true;
    }
  }

  // ---- highlighting --------------------------------------------------------

  // The value at a JSON pointer (RFC 6901), or undefined.
  function at(value, pointer) {
    if (pointer === "") return value;
    if (!pointer.startsWith("/")) return undefined;
    for (const raw of pointer.slice(1).split("/")) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      if (value === null || typeof value !== "object") return undefined;
      if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
      value = value[key];
    }
    return value;
  }

  // `text` with the byte spans [start, end) (UTF-8 offsets, as findings
  // give them) marked, as a list of nodes.
  function marked(text, spans) {
    const bytes = new TextEncoder().encode(text);
    const decode = (a, b) => new TextDecoder().decode(bytes.subarray(a, b));
    const sorted = spans
      .filter((s) => s.start <= s.end && s.end <= bytes.length)
      .sort((a, b) => a.start - b.start || b.end - a.end);
    const nodes = [];
    let at = 0;
    for (const s of sorted) {
      if (s.end <= at) continue;
      const start = Math.max(s.start, at);
      if (start > at) nodes.push(document.createTextNode(decode(at, start)));
      const m = el("mark", decode(start, s.end));
      m.title = s.labels.join(", ");
      m.dataset.check = s.labels.join(" ");
      nodes.push(m);
      at = s.end;
    }
    if (at < bytes.length) nodes.push(document.createTextNode(decode(at, bytes.length)));
    return nodes;
  }

  // Every field a finding points at, with its matches marked.
  function showHighlights(container, request, findings) {
    container.replaceChildren();
    const fields = new Map();
    for (const f of findings) {
      const loc = f.location;
      if (!loc || typeof loc.field !== "string") continue;
      if (!fields.has(loc.field)) fields.set(loc.field, []);
      if (Number.isInteger(loc.start) && Number.isInteger(loc.end)) {
        fields.get(loc.field).push({ start: loc.start, end: loc.end, labels: [f.checkId] });
      } else {
        fields.get(loc.field).push({ whole: true, labels: [f.checkId] });
      }
    }
    if (fields.size === 0) return;
    container.appendChild(el("h3", "Found in the request"));
    for (const [field, spans] of fields) {
      const box = el("div", null, "field");
      box.appendChild(el("code", field, "pointer"));
      const value = at(request, field);
      const pre = el("pre", null, "text");
      if (typeof value === "string") {
        const parts = spans.filter((s) => !s.whole);
        if (parts.length > 0) {
          pre.append(...marked(value, parts));
        } else {
          const m = el("mark", value);
          m.dataset.check = spans.map((s) => s.labels.join(" ")).join(" ");
          pre.appendChild(m);
        }
      } else if (value !== undefined) {
        const m = el("mark", JSON.stringify(value));
        m.dataset.check = spans.map((s) => s.labels.join(" ")).join(" ");
        pre.appendChild(m);
      } else {
        pre.textContent = "(not a member of the request as typed)";
      }
      box.appendChild(pre);
      container.appendChild(box);
    }
  }

  function findingItem(f, kind) {
    const li = el("li", null, "finding finding-" + kind);
    li.appendChild(el("span", f.action, "action action-" + f.action));
    li.appendChild(el("code", f.checkId, "check-id"));
    li.appendChild(el("span", f.severity, "severity"));
    const text = f.message || f.reasonCode;
    li.appendChild(el("span", text, "finding-message"));
    if (f.suggestion) li.appendChild(el("span", f.suggestion, "suggestion"));
    return li;
  }

  // ---- check ---------------------------------------------------------------

  async function check() {
    const error = $("request-error");
    error.textContent = "";
    let request;
    try {
      request = JSON.parse($("request").value);
    } catch (e) {
      error.textContent = "The request is not JSON: " + e.message;
      return;
    }
    $("check").disabled = true;
    try {
      const response = await fetch("/v1/check", {
        method: "POST",
        headers: headers({ "Content-Type": "application/json" }),
        body: $("request").value,
      });
      if (!response.ok) throw new Error(await failure(response));
      showDecision(request, await response.json());
    } catch (e) {
      error.textContent = e.message;
      $("result").hidden = true;
    } finally {
      $("check").disabled = false;
    }
  }

  function showDecision(request, d) {
    $("decision").textContent = d.decision;
    $("decision").className = "decision decision-" + d.decision;
    $("reason").textContent = d.reasonCode || "";
    $("message").textContent = d.message || "";
    const all = (d.violations || []).concat(d.warnings || []);
    showHighlights($("highlights"), request, all);
    const list = $("findings");
    list.replaceChildren();
    for (const f of d.violations || []) list.appendChild(findingItem(f, "violation"));
    for (const f of d.warnings || []) list.appendChild(findingItem(f, "warning"));
    const modified = d.modified ? d.modified.content ?? d.modified.arguments ?? d.modified.output : null;
    $("modified").hidden = modified === null || modified === undefined;
    $("modified-text").textContent =
      typeof modified === "string" ? modified : JSON.stringify(modified, null, 2);
    $("decision-json").textContent = JSON.stringify(d, null, 2);
    $("result").hidden = false;
  }

  // ---- stream --------------------------------------------------------------

  async function stream() {
    const error = $("stream-error");
    error.textContent = "";
    const text = $("stream-text").value;
    const size = Math.max(1, Math.min(4096, parseInt($("stream-size").value, 10) || 8));
    // Pieces by code point, so that none splits a character.
    const chars = Array.from(text);
    const lines = [JSON.stringify({ stage: "output", agent: { id: "playground" } })];
    for (let i = 0; i < chars.length; i += size) {
      lines.push(JSON.stringify({ delta: chars.slice(i, i + size).join("") }));
    }
    const list = $("stream-lines");
    list.replaceChildren();
    $("stream-highlights").replaceChildren();
    $("stream").disabled = true;
    try {
      const response = await fetch("/v1/check/stream", {
        method: "POST",
        headers: headers({ "Content-Type": "application/x-ndjson" }),
        body: lines.join("\n") + "\n",
      });
      if (!response.ok) throw new Error(await failure(response));
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffered = "";
      let last = null;
      for (;;) {
        const { value, done } = await reader.read();
        if (value) buffered += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          if (!line) continue;
          last = JSON.parse(line);
          list.appendChild(streamLine(last));
        }
        if (done) break;
      }
      if (last) {
        const all = (last.violations || []).concat(last.warnings || []);
        showHighlights($("stream-highlights"), { content: text }, all);
      }
    } catch (e) {
      error.textContent = e.message;
    } finally {
      $("stream").disabled = false;
    }
  }

  function streamLine(d) {
    const li = el("li", null, "stream-line");
    li.appendChild(badge(d.decision));
    li.appendChild(el("span", d.final ? "final" : "while streaming", "when"));
    const ids = (d.violations || []).concat(d.warnings || []).map((f) => f.checkId);
    if (ids.length) li.appendChild(el("code", ids.join(", "), "check-id"));
    if (d.modified && typeof d.modified.content === "string") {
      li.appendChild(el("span", d.modified.content, "stream-modified"));
    }
    return li;
  }

  // ---- audit ---------------------------------------------------------------

  async function audit() {
    const error = $("audit-error");
    error.textContent = "";
    try {
      const page = await getJson("/v1/audit?limit=20");
      const body = $("records").tBodies[0];
      body.replaceChildren();
      // Newest first.
      for (const r of page.records.slice().reverse()) {
        const checks = Array.isArray(r.checks) ? r.checks.join(", ") : "";
        body.appendChild(
          row([r.time || "", r.stage || "", badge(r.decision || "?"), checks, r.agent || "", r.requestId || ""]),
        );
      }
      if (page.records.length === 0) {
        error.textContent = "No decisions recorded for tenant " + page.tenant + " yet.";
      }
      $("records").hidden = false;
    } catch (e) {
      error.textContent = e.message;
      $("records").hidden = true;
    }
  }

  // ---- what an approval is bound to ----------------------------------------

  // Canonical JSON as the service writes it (PROTOCOL.md §4.10): no
  // whitespace, members sorted by their names' UTF-8 bytes, numbers by
  // value without an exponent. A number this page cannot read exactly (an
  // integer beyond 2^53) gives another text, so another digest: a call
  // never matches an approval it is not bound to.
  const utf8 = new TextEncoder();

  function byUtf8(a, b) {
    const x = utf8.encode(a);
    const y = utf8.encode(b);
    for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  }

  function canonicalNumber(n) {
    if (!Number.isFinite(n)) throw new Error("a number out of range");
    if (n === 0) return "0";
    const text = String(n);
    const m = /^(-?)(\d)(?:\.(\d+))?e([+-])(\d+)$/.exec(text);
    if (!m) return text;
    const digits = m[2] + (m[3] || "");
    const exp = parseInt(m[5], 10);
    if (m[4] === "+") return m[1] + digits + "0".repeat(exp - (digits.length - 1));
    return m[1] + "0." + "0".repeat(exp - 1) + digits;
  }

  function canonical(value) {
    if (value === null) return "null";
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "number") return canonicalNumber(value);
    if (typeof value === "string") return JSON.stringify(value);
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    const names = Object.keys(value).sort(byUtf8);
    return "{" + names.map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  }

  // The member of `call` at `path`, or null.
  function member(call, ...path) {
    let v = call;
    for (const name of path) {
      if (v === null || typeof v !== "object" || Array.isArray(v) || !(name in v)) return null;
      v = v[name];
    }
    return v === undefined ? null : v;
  }

  // What an approval of `tenant` at `stage` binds of `call`: the subject
  // whose canonical JSON's SHA-256 is `approval.bound`.
  function subjectOf(tenant, stage, call) {
    const tools = stage === "tool_use" || stage === "tool_output";
    const context = {};
    for (const name of ["cwd", "home", "workspaceRoot"]) {
      const v = member(call, "context", name);
      if (v !== null) context[name] = v;
    }
    return {
      v: 1,
      tenant,
      stage,
      session: member(call, "sessionId"),
      tool: member(call, "tool", "name"),
      arguments: tools ? member(call, "tool", "arguments") : null,
      action: null,
      content: stage === "tool_use" ? null : member(call, "content"),
      output: stage === "tool_output" ? member(call, "tool", "output") : null,
      error: stage === "tool_output" ? member(call, "tool", "error") : null,
      context,
    };
  }

  async function sha256(text) {
    const digest = await crypto.subtle.digest("SHA-256", utf8.encode(text));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // Compares the call typed into a card with the approval it shows.
  async function compare(card) {
    const result = card.compareResult;
    const shown = card.compareShown;
    result.className = "compare-result";
    shown.hidden = true;
    shown.textContent = "";
    const a = card.approval;
    if (a.stage === "action") {
      result.textContent =
        "This page does not compare an action: the service binds an action as it reads it.";
      return;
    }
    if (!window.isSecureContext || !window.crypto || !crypto.subtle) {
      result.textContent =
        "This browser computes SHA-256 only for a page served over HTTPS or from localhost.";
      result.classList.add("error");
      return;
    }
    let call;
    try {
      call = JSON.parse(card.call.value);
    } catch (e) {
      result.textContent = "The call is not JSON: " + e.message;
      result.classList.add("error");
      return;
    }
    if (call === null || typeof call !== "object" || Array.isArray(call)) {
      result.textContent = "The call is not a JSON object (a v1 CheckRequest).";
      result.classList.add("error");
      return;
    }
    const subject = subjectOf(a.tenant, a.stage, call);
    let digest;
    try {
      digest = await sha256(canonical(subject));
    } catch (e) {
      result.textContent = "The call cannot be compared: " + e.message;
      result.classList.add("error");
      return;
    }
    const bound = typeof a.bound === "string" ? a.bound : "";
    if (digest === bound) {
      result.textContent =
        "Matches: approving lets exactly this call through once — tool " + (subject.tool ?? "(none)") +
        ", session " + (subject.session ?? "(none)") + ", with:";
      result.classList.add("done");
      const members = a.stage === "tool_use" || a.stage === "tool_output"
        ? { arguments: subject.arguments, output: subject.output, error: subject.error }
        : { content: subject.content };
      if (Object.keys(subject.context).length) members.context = subject.context;
      for (const k of Object.keys(members)) if (members[k] === null) delete members[k];
      shown.textContent = canonical(members);
      shown.hidden = false;
    } else {
      result.textContent =
        "Does not match: this approval is not for that call (its digest is " + digest.slice(0, 16) +
        "…, the approval's " + bound.slice(0, 16) + "…). Another value, session, working " +
        "directory or tenant is another call.";
      result.classList.add("error");
    }
  }

  // ---- approvals -----------------------------------------------------------

  // The cards shown, by approval id: each keeps its note field while the
  // list is refreshed.
  const cards = new Map();
  // The service's clock minus this page's (from the Date header), so that
  // a countdown is right on a machine whose clock is off.
  let skewMs = 0;
  // Whether the last load of the list succeeded: only then does the list
  // refresh itself.
  let approvalsShown = false;
  let approvalsLoading = false;
  let approvalsAgain = false;
  let cardCount = 0;

  function remaining(ms) {
    if (ms <= 0) return "expired (the service refuses it now)";
    const s = Math.ceil(ms / 1000);
    const m = Math.floor(s / 60);
    const h = Math.floor(m / 60);
    const two = (n) => String(n).padStart(2, "0");
    return "expires in " + (h > 0 ? h + ":" + two(m % 60) : String(m)) + ":" + two(s % 60);
  }

  function tick() {
    const now = Date.now() + skewMs;
    for (const card of cards.values()) {
      card.countdown.textContent = Number.isFinite(card.expires)
        ? remaining(card.expires - now) + " (at " + new Date(card.expires - skewMs).toLocaleTimeString() + ")"
        : "expiry unknown";
    }
  }

  function fact(list, term) {
    list.appendChild(el("dt", term));
    const dd = el("dd");
    list.appendChild(dd);
    return dd;
  }

  function newCard(id) {
    const n = ++cardCount;
    const li = el("li", null, "approval");
    li.dataset.id = id;
    const head = el("div", null, "approval-head");
    head.id = "approval-" + n;
    const tool = el("code", null, "approval-tool");
    const stage = el("span", null, "approval-stage");
    const countdown = el("span", null, "approval-expiry");
    head.append(el("span", "pending", "decision decision-ask"), tool, stage, countdown);
    li.appendChild(head);
    const facts = el("dl", null, "approval-facts");
    const bound = el("code", null, "approval-bound");
    fact(facts, "Bound to").appendChild(bound);
    const session = fact(facts, "Session");
    const checks = fact(facts, "Asked by");
    const requested = fact(facts, "Requested by");
    const idCell = el("code", null, "approval-id");
    fact(facts, "Approval").appendChild(idCell);
    li.appendChild(facts);
    const actions = el("div", null, "actions");
    const noteLabel = el("label", "Note (optional)");
    const note = document.createElement("input");
    note.type = "text";
    note.maxLength = 2000;
    note.className = "approval-note";
    note.spellcheck = false;
    noteLabel.appendChild(note);
    const approve = el("button", "Approve", "approve");
    const deny = el("button", "Deny", "deny");
    for (const b of [approve, deny]) {
      b.type = "button";
      b.setAttribute("aria-describedby", head.id);
    }
    actions.append(noteLabel, approve, deny);
    li.appendChild(actions);
    const details = el("details", null, "compare");
    details.appendChild(el("summary", "Compare with a call"));
    const callLabel = el("label", "The call as the agent sends it (v1 CheckRequest, JSON)");
    const call = document.createElement("textarea");
    call.className = "compare-call";
    call.rows = 5;
    call.spellcheck = false;
    callLabel.appendChild(call);
    const compareButton = el("button", "Compare", "compare-button");
    compareButton.type = "button";
    const compareResult = el("p", null, "compare-result");
    compareResult.setAttribute("role", "status");
    const compareShown = el("pre", null, "compare-shown");
    compareShown.hidden = true;
    details.append(callLabel, compareButton, compareResult, compareShown);
    li.appendChild(details);
    const card = {
      li, tool, stage, countdown, bound, session, checks, requested, idCell, note, approve, deny,
      call, compareResult, compareShown, approval: null, expires: NaN,
    };
    compareButton.addEventListener("click", () => compare(card));
    approve.addEventListener("click", () => answerApproval(id, "approve", card));
    deny.addEventListener("click", () => answerApproval(id, "deny", card));
    return card;
  }

  function fillCard(card, a) {
    card.approval = a;
    card.tool.textContent = a.tool || "(no tool)";
    card.stage.textContent = a.stage || "";
    card.bound.textContent = typeof a.bound === "string" ? a.bound.slice(0, 16) + "…" : "";
    card.bound.title = "SHA-256 of the call: " + (a.bound || "");
    card.bound.dataset.bound = a.bound || "";
    card.session.textContent = a.sessionId || "(none)";
    const checks = Array.isArray(a.checks) ? a.checks.join(", ") : "";
    card.checks.textContent = (checks ? checks + ": " : "") + (a.message || "");
    card.requested.textContent =
      (a.requestedBy || "(no key)") + (a.agent ? ", agent " + a.agent : "") +
      (a.requestId ? ", request " + a.requestId : "");
    card.idCell.textContent = a.id;
    card.expires = Date.parse(a.expiresAt);
    card.countdown.title = "expires at " + (a.expiresAt || "?");
  }

  function clearCards() {
    cards.clear();
    $("approvals").replaceChildren();
  }

  async function loadApprovals(manual) {
    if (manual) {
      $("approvals-error").textContent = "";
      $("approvals-done").textContent = "";
    }
    if (approvalsLoading) {
      // One more load once this one is done: an answer given meanwhile
      // is then shown.
      approvalsAgain = true;
      return;
    }
    approvalsLoading = true;
    const status = $("approvals-status");
    try {
      const response = await fetch("/v1/approvals?state=pending", { headers: headers() });
      if (!response.ok) throw new Error(await failure(response));
      const date = Date.parse(response.headers.get("Date") || "");
      if (Number.isFinite(date)) skewMs = date - Date.now();
      const list = await response.json();
      const approvals = Array.isArray(list.approvals) ? list.approvals : [];
      const seen = new Set();
      const ul = $("approvals");
      let position = 0;
      for (const a of approvals) {
        if (!a || typeof a.id !== "string" || seen.has(a.id)) continue;
        seen.add(a.id);
        let card = cards.get(a.id);
        if (!card) {
          card = newCard(a.id);
          cards.set(a.id, card);
        }
        fillCard(card, a);
        // Moved only when out of place, so that a note being typed keeps
        // its focus.
        if (ul.children[position] !== card.li) ul.insertBefore(card.li, ul.children[position] || null);
        position += 1;
      }
      for (const [id, card] of cards) {
        if (!seen.has(id)) {
          card.li.remove();
          cards.delete(id);
        }
      }
      status.classList.remove("error");
      const time = new Date().toLocaleTimeString();
      status.textContent =
        "Tenant " + list.tenant + ": " +
        (seen.size === 0 ? "no pending approvals" : seen.size + " pending") + " (at " + time + ").";
      approvalsShown = true;
      $("approvals-load").textContent = "Refresh";
      tick();
    } catch (e) {
      status.textContent = e.message;
      status.classList.add("error");
      approvalsShown = false;
      clearCards();
    } finally {
      approvalsLoading = false;
      if (approvalsAgain) {
        approvalsAgain = false;
        await loadApprovals(false);
      }
    }
  }

  async function answerApproval(id, decision, card) {
    const error = $("approvals-error");
    const done = $("approvals-done");
    error.textContent = "";
    done.textContent = "";
    const verb = decision === "approve" ? "Approve" : "Deny";
    const body = { decision };
    const note = card.note.value.trim();
    if (note) body.note = note;
    card.approve.disabled = true;
    card.deny.disabled = true;
    try {
      const response = await fetch("/v1/approvals/" + encodeURIComponent(id), {
        method: "POST",
        headers: headers({ "Content-Type": "application/json" }),
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(await failure(response));
      const a = await response.json();
      done.textContent =
        a.state === "approved"
          ? "Approved " + a.id + ": the same call, sent again with approvalId " + a.id +
            ", passes once until " + a.expiresAt + "."
          : "Denied " + a.id + ": the call sent again with it is refused.";
    } catch (e) {
      error.textContent = verb + " " + id + " was refused: " + e.message;
    } finally {
      card.approve.disabled = false;
      card.deny.disabled = false;
      await loadApprovals(false);
    }
  }

  // ---- wiring --------------------------------------------------------------

  function useExample(example) {
    $("request").value = JSON.stringify(example.request, null, 2);
    $("request-error").textContent = "";
  }

  document.addEventListener("DOMContentLoaded", () => {
    const examples = $("examples");
    EXAMPLES.forEach((example, i) => {
      const b = el("button", example.label, "example");
      b.type = "button";
      b.dataset.example = String(i);
      b.addEventListener("click", () => useExample(example));
      examples.appendChild(b);
    });
    useExample(EXAMPLES[2]);
    $("stream-text").value = STREAM_TEXT;
    $("access").addEventListener("submit", (e) => {
      e.preventDefault();
      loadPolicy();
    });
    $("check").addEventListener("click", check);
    $("request").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) check();
    });
    $("stream").addEventListener("click", stream);
    $("audit").addEventListener("click", audit);
    $("approvals-load").addEventListener("click", () => loadApprovals(true));
    setInterval(() => {
      if (approvalsShown && $("approvals-auto").checked && !document.hidden) loadApprovals(false);
    }, 5000);
    setInterval(tick, 1000);
    loadPolicy();
  });
})();
