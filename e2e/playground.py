"""The playground page of `palisade serve`, in headless Chromium driven by
Selenium through ChromeDriver: the page loads, refuses politely without a
key, shows the policy of the key's tenant, checks a request typed into it
and highlights the finding, streams an answer, lists the tenant's recent
decisions with an admin key, lists a tenant's pending approvals for an
approver's key and answers them (the approved call then passes once, the
denied one not; the service's refusals are shown; markup from a call stays
text), and is absent when the config turns it off.

Usage: python3 e2e/playground.py PALISADE_BINARY ARTIFACTS_DIR
Chromium and ChromeDriver are found at CHROMIUM (default /usr/bin/chromium)
and CHROMEDRIVER (default /usr/bin/chromedriver). Screenshots of the page
are written to ARTIFACTS_DIR. Exit code 0 when every scenario passed.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from common import Failure, free_port

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

PALISADE = str(Path(sys.argv[1]).resolve())
ARTIFACTS = Path(sys.argv[2]).resolve()
# A credential, spelt so that this file holds none.
AWS_KEY = "AKI" + "ATZWH2NUO6OXQBF6D"
CHECK_KEY = "playground-check-key"
ADMIN_KEY = "playground-admin-key"
ACME_KEY = "playground-acme-key"
AGENT_KEY = "playground-agent-key"
LEAD_KEY = "playground-lead-key"
BETA_LEAD_KEY = "playground-beta-lead-key"

ACME_POLICY = """\
# acme's own policy: one word list.
checks:
  - id: no-project-names
    stage: [input, output]
    type: blocklist
    words: [bluebird]
"""


class Server:
    """`palisade serve --config` as a child process."""

    def __init__(self, workdir, config):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        path = Path(workdir) / f"config-{self.port}.json"
        path.write_text(json.dumps(config))
        env = dict(
            os.environ,
            PG_CHECK_KEY=CHECK_KEY,
            PG_ADMIN_KEY=ADMIN_KEY,
            PG_ACME_KEY=ACME_KEY,
            PG_AGENT_KEY=AGENT_KEY,
            PG_LEAD_KEY=LEAD_KEY,
            PG_BETA_LEAD_KEY=BETA_LEAD_KEY,
        )
        self.log = open(Path(workdir) / f"serve-{self.port}.log", "w")
        self.proc = subprocess.Popen(
            [PALISADE, "serve", "--config", str(path), "--listen", f"127.0.0.1:{self.port}"],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            cwd=workdir,
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise Failure(f"palisade serve exited with {self.proc.returncode}")
            try:
                urllib.request.urlopen(self.base + "/health", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise Failure("palisade serve did not answer /health within 20 s")

    def status(self, path):
        try:
            return urllib.request.urlopen(self.base + path, timeout=5).status
        except urllib.error.HTTPError as e:
            return e.code

    def call(self, method, path, key, body=None):
        """`METHOD path` with `key` and a JSON body: the status and the parsed answer."""
        request = urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"X-API-Key": key, "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def check(self, request, key=AGENT_KEY):
        status, decision = self.call("POST", "/v1/check", key, request)
        if status != 200:
            raise Failure(f"POST /v1/check answered {status}: {decision}")
        return decision

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.log.close()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1600",
        f"--user-data-dir={tempfile.mkdtemp(prefix='palisade-chromium-')}",
    ):
        options.add_argument(flag)
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(options=options, service=service)


def wait_text(driver, element_id, predicate, what, timeout=10):
    """Waits until the text of #element_id satisfies `predicate`."""
    try:
        return WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: (t := d.find_element(By.ID, element_id).text) and predicate(t) and t
        )
    except Exception as e:
        now = driver.find_element(By.ID, element_id).text
        raise Failure(f"{what}: #{element_id} says {now!r}") from e


def type_into(driver, element_id, text):
    field = driver.find_element(By.ID, element_id)
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    field.send_keys(text)


def scenario_no_key_then_policy(driver, server):
    driver.get(server.base + "/")
    if driver.title != "Palisade playground":
        raise Failure(f"the page's title is {driver.title!r}")
    wait_text(driver, "policy-status", lambda t: "HTTP 401" in t, "without a key the policy is refused")
    type_into(driver, "key", CHECK_KEY)
    driver.find_element(By.ID, "connect").click()
    wait_text(driver, "policy-status", lambda t: t.startswith("Tenant default"), "the policy loads")
    ids = [r.get_attribute("data-check") for r in driver.find_elements(By.CSS_SELECTOR, "#checks tbody tr")]
    # The embedded default policy's check ids, in order, as the binary
    # prints the policy.
    printed = subprocess.run([PALISADE, "policy", "default"], capture_output=True, text=True, check=True).stdout
    expected = [line.split("id:", 1)[1].strip() for line in printed.splitlines() if line.strip().startswith("- id:")]
    if len(expected) < 6 or "dangerous-commands" not in expected:
        raise Failure(f"`palisade policy default` lists {expected}")
    if ids != expected:
        raise Failure(f"the policy table lists {ids}, expected {expected}")
    text = driver.execute_script("return document.getElementById('policy-text').textContent")
    if "secrets-in-tool-output" not in text or "#" not in text:
        raise Failure("the policy text is not the embedded default policy with its comments")


def scenario_typed_request_blocked(driver):
    request = json.dumps(
        {"stage": "tool_output", "tool": {"name": "Read", "output": f"export AWS_ACCESS_KEY_ID={AWS_KEY}\nmake deploy"}}
    )
    type_into(driver, "request", request)
    driver.find_element(By.ID, "check").click()
    wait_text(driver, "decision", lambda t: t.strip().lower() == "block", "the typed request is blocked")
    marks = driver.find_elements(By.CSS_SELECTOR, "#highlights mark")
    if [m.text for m in marks] != [AWS_KEY]:
        raise Failure(f"highlighted {[m.text for m in marks]}, expected only the key")
    if marks[0].get_attribute("data-check") != "secrets-in-tool-output":
        raise Failure(f"the mark names {marks[0].get_attribute('data-check')!r}")
    pointer = driver.find_element(By.CSS_SELECTOR, "#highlights .pointer").text
    if pointer != "/tool/output":
        raise Failure(f"the highlighted field is {pointer!r}")
    findings = driver.find_element(By.ID, "findings").text
    if "secrets-in-tool-output" not in findings or "aws_access_key_id" not in findings:
        raise Failure(f"the findings list says {findings!r}")
    driver.save_screenshot(str(ARTIFACTS / "playground-block.png"))


def scenario_examples(driver):
    # The personal-data example: two spans redacted, the modified text shown.
    driver.find_element(By.XPATH, "//button[@data-example and contains(., 'output: personal data')]").click()
    driver.find_element(By.ID, "check").click()
    wait_text(driver, "decision", lambda t: t.strip().lower() == "modify", "personal data is redacted")
    marks = [m.text for m in driver.find_elements(By.CSS_SELECTOR, "#highlights mark")]
    if marks != ["jane.doe@northwind-mail.com", "+1 415 555 2671"]:
        raise Failure(f"highlighted {marks}")
    modified = driver.find_element(By.ID, "modified-text").text
    if "jane.doe" in modified or "[REDACTED:email]" not in modified:
        raise Failure(f"the modified text is {modified!r}")
    # A dangerous command: the whole command is marked (the finding names
    # the field, not a span).
    driver.find_element(By.XPATH, "//button[@data-example and contains(., 'rm -rf')]").click()
    driver.find_element(By.ID, "check").click()
    wait_text(driver, "decision", lambda t: t.strip().lower() == "block", "rm -rf / is blocked")
    marks = [m.text for m in driver.find_elements(By.CSS_SELECTOR, "#highlights mark")]
    if marks != ["cd build && rm -rf / --no-preserve-root"]:
        raise Failure(f"highlighted {marks}")
    # Markup in a request is shown as text, never run or rendered: the
    # finding is still marked, and no element comes out of the request.
    hostile = json.dumps({
        "stage": "output",
        "content": "<img src=x onerror=\"document.title='pwned'\"><b>bold</b> jane.doe@northwind-mail.com",
    })
    type_into(driver, "request", hostile)
    driver.find_element(By.ID, "check").click()
    wait_text(driver, "decision", lambda t: t.strip().lower() == "modify", "markup beside an e-mail address")
    if driver.find_elements(By.CSS_SELECTOR, "#highlights img, #highlights b, #modified img, #modified b"):
        raise Failure("markup from the request became elements of the page")
    marks = [m.text for m in driver.find_elements(By.CSS_SELECTOR, "#highlights mark")]
    if marks != ["jane.doe@northwind-mail.com"]:
        raise Failure(f"highlighted {marks} beside markup")
    shown = driver.find_element(By.CSS_SELECTOR, "#highlights pre").text
    if "<img src=x" not in shown or driver.title != "Palisade playground":
        raise Failure(f"the request's markup is not shown as text: {shown!r}, title {driver.title!r}")
    # Not JSON: said so, nothing sent.
    type_into(driver, "request", '{"stage": "input", "content": ')
    driver.find_element(By.ID, "check").click()
    wait_text(driver, "request-error", lambda t: "not JSON" in t, "a request that is not JSON")
    # Invalid: the service's 400 names the field.
    type_into(driver, "request", '{"stage": "inputt", "content": "hi"}')
    driver.find_element(By.ID, "check").click()
    wait_text(driver, "request-error", lambda t: "HTTP 400" in t and "stage" in t, "an invalid stage")


def scenario_stream(driver):
    type_into(driver, "stream-size", "5")
    driver.find_element(By.ID, "stream").click()
    wait_text(driver, "stream-lines", lambda t: "final" in t, "the stream ends with a final decision")
    lines = driver.find_elements(By.CSS_SELECTOR, "#stream-lines li")
    last = lines[-1].text
    if "MODIFY" not in last.upper() or "secrets-in-output" not in last:
        raise Failure(f"the final stream line says {last!r}")
    marks = [m.text for m in driver.find_elements(By.CSS_SELECTOR, "#stream-highlights mark")]
    if AWS_KEY not in marks:
        raise Failure(f"the key split across pieces of 5 was not highlighted: {marks}")


def scenario_audit(driver):
    # The check key may not read the audit log.
    driver.find_element(By.ID, "audit").click()
    wait_text(driver, "audit-error", lambda t: "HTTP 403" in t, "the audit needs an admin key")
    type_into(driver, "key", ADMIN_KEY)
    driver.find_element(By.ID, "audit").click()
    WebDriverWait(driver, 10).until(EC.visibility_of_element_located((By.ID, "records")))
    rows = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#records tbody tr")]
    if not any("secrets-in-tool-output" in r and "BLOCK" in r.upper() for r in rows):
        raise Failure(f"the recent decisions lack the blocked request: {rows}")
    if not any("playground" in r for r in rows):
        raise Failure(f"the recent decisions lack the streamed answer: {rows}")
    driver.execute_script("document.getElementById('audit-section').scrollIntoView()")
    driver.save_screenshot(str(ARTIFACTS / "playground-audit.png"))


def scenario_other_tenant(driver):
    type_into(driver, "key", ACME_KEY)
    driver.find_element(By.ID, "connect").click()
    wait_text(driver, "policy-status", lambda t: t.startswith("Tenant acme"), "acme's key sees acme's policy")
    ids = [r.get_attribute("data-check") for r in driver.find_elements(By.CSS_SELECTOR, "#checks tbody tr")]
    if ids != ["no-project-names"]:
        raise Failure(f"acme's policy table lists {ids}")
    # Naming another tenant is refused.
    type_into(driver, "tenant", "default")
    driver.find_element(By.ID, "connect").click()
    wait_text(driver, "policy-status", lambda t: "HTTP 403" in t, "a key naming another tenant")


DEPLOYS_POLICY = """\
# Deploys wait for a person.
checks:
  - { id: confirm-deploy, stage: tool_use, type: tool_pattern, tools: ["deploy*"], on_fail: ask }
"""

# Markup in every member of a call that the page may show.
HOSTILE = "<img src=x onerror=\"document.title='pwned'\">"


def deploy(session, arguments, tool="deploy", **extra):
    return dict({"sessionId": session, "tool": {"name": tool, "arguments": arguments}}, **extra)


def asked(server, request):
    """The agent's call, refused with an approval: that approval."""
    d = server.check(request)
    approval = d.get("approval")
    if d["decision"] not in ("ask", "block") or not approval or d["reasonCode"] != "guardrail.tool_pattern":
        raise Failure(f"the deploy call was not asked about: {d}")
    return approval


def card(driver, approval_id, timeout=10):
    """The pending approval's card in the page, once it is listed."""
    selector = f'#approvals li[data-id="{approval_id}"]'
    try:
        return WebDriverWait(driver, timeout).until(EC.visibility_of_element_located((By.CSS_SELECTOR, selector)))
    except Exception as e:
        shown = driver.find_element(By.ID, "approvals-section").text
        raise Failure(f"approval {approval_id} is not listed; the panel says {shown!r}") from e


def gone(driver, approval_id, what, timeout=10):
    selector = f'#approvals li[data-id="{approval_id}"]'
    try:
        WebDriverWait(driver, timeout).until(lambda d: not d.find_elements(By.CSS_SELECTOR, selector))
    except Exception as e:
        raise Failure(f"{what}: approval {approval_id} is still listed") from e


def fact(element, term):
    """The text of the card's `term` (a <dt>), from its <dd>."""
    return element.find_element(By.XPATH, f".//dt[.='{term}']/following-sibling::dd[1]").text


def compare(shown, call):
    """Types `call` into the card's comparison and compares: the result and what it shows."""
    details = shown.find_element(By.CSS_SELECTOR, "details.compare")
    if details.get_attribute("open") is None:
        details.find_element(By.TAG_NAME, "summary").click()
    field = details.find_element(By.CSS_SELECTOR, ".compare-call")
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    field.send_keys(json.dumps(call))
    details.find_element(By.XPATH, ".//button[.='Compare']").click()
    result = details.find_element(By.CSS_SELECTOR, ".compare-result")
    try:
        WebDriverWait(details, 10).until(lambda _: result.text)
    except Exception as e:
        raise Failure(f"comparing {call} says nothing") from e
    return result.text, details.find_element(By.CSS_SELECTOR, ".compare-shown").text


def refresh_as(driver, key):
    type_into(driver, "key", key)
    driver.find_element(By.ID, "approvals-load").click()


def scenario_approve(driver, server):
    request = deploy("s-7", {"service": "api", "replicas": 3}, requestId="deploy-7")
    approval = asked(server, request)
    driver.get(server.base + "/")
    # Without a key the panel says what is missing.
    driver.find_element(By.ID, "approvals-load").click()
    wait_text(driver, "approvals-status", lambda t: "HTTP 401" in t, "approvals without a key")
    refresh_as(driver, LEAD_KEY)
    shown = card(driver, approval["id"])
    tool = shown.find_element(By.CSS_SELECTOR, ".approval-tool").text
    bound = shown.find_element(By.CSS_SELECTOR, ".approval-bound")
    if tool != "deploy" or fact(shown, "Session") != "s-7":
        raise Failure(f"the card shows tool {tool!r}, session {fact(shown, 'Session')!r}")
    if bound.text != approval["bound"][:16] + "…" or bound.get_attribute("data-bound") != approval["bound"]:
        raise Failure(f"the card shows the digest {bound.text!r}, the call's is {approval['bound']}")
    if "bot" not in fact(shown, "Requested by") or "deploy-7" not in fact(shown, "Requested by"):
        raise Failure(f"requested by {fact(shown, 'Requested by')!r}")
    if "confirm-deploy" not in fact(shown, "Asked by"):
        raise Failure(f"asked by {fact(shown, 'Asked by')!r}")
    countdown = shown.find_element(By.CSS_SELECTOR, ".approval-expiry").text
    if not re.fullmatch(r"expires in 1[45]:\d\d \(at .+\)", countdown):
        raise Failure(f"the countdown of a 900 s approval says {countdown!r}")
    wait_text(driver, "approvals-status", lambda t: t.startswith("Tenant default: 1 pending"), "one pending")
    # The arguments, shown once the person has the call the approval is
    # bound to: another value is another call.
    said, _ = compare(shown, deploy("s-7", {"service": "api", "replicas": 4}))
    if not said.startswith("Does not match"):
        raise Failure(f"replicas 4 compared with the approval of replicas 3: {said!r}")
    said, _ = compare(shown, deploy("s-8", {"service": "api", "replicas": 3}))
    if not said.startswith("Does not match"):
        raise Failure(f"another session compared with the approval: {said!r}")
    said, bound_to = compare(shown, {"tool": {"arguments": {"replicas": 3.0, "service": "api"}, "name": "deploy"},
                                     "sessionId": "s-7", "requestId": "another"})
    if not said.startswith("Matches") or bound_to != '{"arguments":{"replicas":3,"service":"api"}}':
        raise Failure(f"the call approved compared with its approval: {said!r}, {bound_to!r}")
    driver.execute_script("document.getElementById('approvals-section').scrollIntoView()")
    driver.save_screenshot(str(ARTIFACTS / "playground-approvals.png"))
    shown.find_element(By.CSS_SELECTOR, ".approval-note").send_keys("release 4.2")
    # The list refreshes itself; the note typed stays.
    before = driver.find_element(By.ID, "approvals-status").text
    wait_text(driver, "approvals-status", lambda t: t != before and "1 pending" in t, "the list refreshes itself")
    shown.find_element(By.XPATH, ".//button[.='Approve']").click()
    wait_text(driver, "approvals-done", lambda t: t.startswith(f"Approved {approval['id']}"), "approved")
    gone(driver, approval["id"], "approved")
    status, answered = server.call("GET", f"/v1/approvals/{approval['id']}", LEAD_KEY)
    if (answered.get("state"), answered.get("answeredBy"), answered.get("note")) != ("approved", "lead", "release 4.2"):
        raise Failure(f"the service holds {answered}")
    # The same call, members in another order and 3.0 for 3: passes once.
    again = deploy("s-7", {"replicas": 3.0, "service": "api"}, approvalId=approval["id"])
    first = server.check(again)
    if (first["decision"], first["reasonCode"]) != ("allow", "approval.applied"):
        raise Failure(f"the approved call is refused: {first}")
    second = server.check(again)
    codes = [w["reasonCode"] for w in second["warnings"]]
    if second["allowed"] or "approval.used" not in codes:
        raise Failure(f"the approval was used twice: {second}")


def scenario_deny(driver, server):
    request = deploy("s-8", {"service": "billing", "replicas": 1})
    approval = asked(server, request)
    # Listed without a click: the panel refreshes every 5 s.
    shown = card(driver, approval["id"], timeout=12)
    shown.find_element(By.XPATH, ".//button[.='Deny']").click()
    wait_text(driver, "approvals-done", lambda t: t.startswith(f"Denied {approval['id']}"), "denied")
    gone(driver, approval["id"], "denied")
    retry = server.check(dict(request, approvalId=approval["id"]))
    codes = [w["reasonCode"] for w in retry["warnings"]]
    if retry["allowed"] or "approval.denied" not in codes:
        raise Failure(f"the denied call passed: {retry}")


def scenario_markup(driver, server):
    tool = "deploy" + HOSTILE
    session = "<b>s-9</b>" + HOSTILE
    call = deploy(session, {"service": HOSTILE, "note": "<script>alert(1)</script>"}, tool=tool,
                  context={"cwd": "/srv/<i>app</i>"})
    approval = asked(server, call)
    driver.find_element(By.ID, "approvals-load").click()
    shown = card(driver, approval["id"])
    said, bound_to = compare(shown, call)
    if not said.startswith("Matches") or HOSTILE not in said + bound_to or "<script>" not in bound_to:
        raise Failure(f"the call's arguments are not shown as text: {said!r}, {bound_to!r}")
    if json.loads(bound_to) != {"arguments": call["tool"]["arguments"], "context": call["context"]}:
        raise Failure(f"the comparison shows {bound_to!r}")
    if driver.find_elements(By.CSS_SELECTOR, "#approvals img, #approvals b, #approvals i, #approvals script"):
        raise Failure("markup from the call became elements of the page")
    if shown.find_element(By.CSS_SELECTOR, ".approval-tool").text != tool or fact(shown, "Session") != session:
        raise Failure(f"the call's markup is not shown as text: {shown.text!r}")
    if driver.title != "Palisade playground":
        raise Failure(f"a call's markup ran: the title is {driver.title!r}")
    driver.execute_script("arguments[0].scrollIntoView()", shown)
    driver.save_screenshot(str(ARTIFACTS / "playground-approvals-markup.png"))
    return approval


def scenario_refusals(driver, server):
    pending = asked(server, deploy("s-12", {"service": "api"}))
    driver.find_element(By.ID, "approvals-load").click()
    card(driver, pending["id"])
    # No refresh in between: the page shows what it loaded last.
    auto = driver.find_element(By.ID, "approvals-auto")
    if auto.is_selected():
        auto.click()
    # Answered elsewhere in the meantime: 409, with the service's words.
    status, body = server.call("POST", f"/v1/approvals/{pending['id']}", LEAD_KEY, {"decision": "deny"})
    if status != 200:
        raise Failure(f"denying over HTTP answered {status}: {body}")
    card(driver, pending["id"]).find_element(By.XPATH, ".//button[.='Approve']").click()
    wait_text(
        driver, "approvals-error",
        lambda t: "HTTP 409" in t and "approval_not_pending" in t and pending["id"] in t,
        "an approval answered already",
    )
    gone(driver, pending["id"], "answered elsewhere")
    # The agent's own key has no approve scope: the service's refusal.
    approval = asked(server, deploy("s-10", {"service": "api"}))
    driver.find_element(By.ID, "approvals-load").click()
    shown = card(driver, approval["id"])
    type_into(driver, "key", AGENT_KEY)
    shown.find_element(By.XPATH, ".//button[.='Approve']").click()
    wait_text(
        driver, "approvals-error",
        lambda t: "HTTP 403" in t and "does not have the scope `guardrails:approve`" in t,
        "the agent's key approving",
    )
    wait_text(driver, "approvals-status", lambda t: "HTTP 403" in t, "the agent's key listing")
    # Another tenant's approver: the approval is not its tenant's.
    refresh_as(driver, LEAD_KEY)
    shown = card(driver, approval["id"])
    type_into(driver, "key", BETA_LEAD_KEY)
    shown.find_element(By.XPATH, ".//button[.='Approve']").click()
    wait_text(
        driver, "approvals-error",
        lambda t: "HTTP 404" in t and "approval_not_found" in t,
        "another tenant's approver",
    )
    wait_text(driver, "approvals-status", lambda t: t.startswith("Tenant beta: no pending"), "beta's list")
    status, still = server.call("GET", f"/v1/approvals/{approval['id']}", LEAD_KEY)
    if still.get("state") != "pending":
        raise Failure(f"a refused answer changed the approval: {still}")
    auto.click()


def scenario_expired(driver, server):
    approval = asked(server, deploy("s-11", {"service": "api"}))
    driver.get(server.base + "/")
    refresh_as(driver, LEAD_KEY)
    auto = driver.find_element(By.ID, "approvals-auto")
    auto.click()
    shown = card(driver, approval["id"])
    try:
        WebDriverWait(driver, 15).until(
            lambda d: shown.find_element(By.CSS_SELECTOR, ".approval-expiry").text.startswith("expired")
        )
    except Exception as e:
        raise Failure(f"the countdown says {shown.find_element(By.CSS_SELECTOR, '.approval-expiry').text!r}") from e
    shown.find_element(By.XPATH, ".//button[.='Approve']").click()
    wait_text(driver, "approvals-error", lambda t: "HTTP 409" in t and "approval_not_pending" in t, "an expired approval")
    gone(driver, approval["id"], "expired")


def main():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="palisade-playground-") as workdir:
        (Path(workdir) / "acme.yaml").write_text(ACME_POLICY)
        (Path(workdir) / "deploys.yaml").write_text(DEPLOYS_POLICY)
        config = {
            "tenants": {"acme": {"policy": "acme.yaml"}},
            "keys": [
                {"id": "dev", "env": "PG_CHECK_KEY", "tenant": "default", "scopes": ["guardrails:check"]},
                {"id": "ops", "env": "PG_ADMIN_KEY", "tenant": "default", "scopes": ["guardrails:check", "guardrails:admin"]},
                {"id": "acme", "env": "PG_ACME_KEY", "tenant": "acme", "scopes": ["guardrails:check"]},
            ],
            "audit": {"path": "audit.jsonl", "durability": "fsync"},
        }
        server = Server(workdir, config)
        off = Server(workdir, dict(config, playground=False))
        # An agent's key and an approver's key of one tenant, and another
        # tenant's approver.
        approvals = {
            "policy": "deploys.yaml",
            "tenants": {"beta": {"policy": "deploys.yaml"}},
            "keys": [
                {"id": "bot", "env": "PG_AGENT_KEY", "tenant": "default", "scopes": ["guardrails:check"]},
                {"id": "lead", "env": "PG_LEAD_KEY", "tenant": "default", "scopes": ["guardrails:approve"]},
                {"id": "beta-lead", "env": "PG_BETA_LEAD_KEY", "tenant": "beta", "scopes": ["guardrails:approve"]},
            ],
            "approvals": {"ttl_secs": 900},
        }
        approving = Server(workdir, approvals)
        expiring = Server(workdir, dict(approvals, approvals={"ttl_secs": 6}))
        driver = browser()
        try:
            steps = [
                ("no key, then the policy", lambda: scenario_no_key_then_policy(driver, server)),
                ("a typed request is blocked and highlighted", lambda: scenario_typed_request_blocked(driver)),
                ("examples, errors", lambda: scenario_examples(driver)),
                ("stream", lambda: scenario_stream(driver)),
                ("recent decisions", lambda: scenario_audit(driver)),
                ("another tenant", lambda: scenario_other_tenant(driver)),
                ("approvals: approved in the page, the call passes once", lambda: scenario_approve(driver, approving)),
                ("approvals: denied in the page, the call is refused", lambda: scenario_deny(driver, approving)),
                ("approvals: a call's markup shown as text", lambda: scenario_markup(driver, approving)),
                ("approvals: refusals shown as the service words them", lambda: scenario_refusals(driver, approving)),
                ("approvals: an expired approval", lambda: scenario_expired(driver, expiring)),
            ]
            for name, step in steps:
                try:
                    step()
                    print(f"ok    {name}")
                except Failure as e:
                    failures += 1
                    print(f"FAIL  {name}: {e}")
                    driver.save_screenshot(str(ARTIFACTS / f"playground-failed-{len(name)}.png"))
            # Off: no page, the API as before.
            statuses = (off.status("/"), off.status("/playground.js"), off.status("/health"))
            if statuses != (404, 404, 200):
                failures += 1
                print(f"FAIL  playground: false: / /playground.js /health answer {statuses}")
            else:
                print("ok    playground: false serves no page")
        finally:
            driver.quit()
            server.stop()
            off.stop()
            approving.stop()
            expiring.stop()
    print(f"screenshots in {ARTIFACTS}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
