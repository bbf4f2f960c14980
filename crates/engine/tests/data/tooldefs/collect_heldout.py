#!/usr/bin/env python3
r"""Collect a held-out set of MCP tool definitions (benign-heldout.jsonl).

Same method as collect.py (which writes benign.jsonl), over a disjoint set of
published servers: none of the packages below is in benign.jsonl. Each server
is started over stdio, sent `initialize` (protocolVersion "2025-06-18", empty
capabilities), `notifications/initialized` and `tools/list` (following
`nextCursor`). Tool objects are written unmodified, one line per tool:

    {"id": "<server>/<tool name>", "source": "npm:<pkg>@<ver>" | "pypi:<pkg>==<ver>", "tool": {...}}

sorted by id, exact duplicates within a server dropped, only servers whose
package metadata states a permissive license. Every key or token is a dummy
value and every endpoint is 127.0.0.1:9; no server needs the network to answer.

Install (root default /tmp/mcp-collect2, override with MCP_COLLECT_ROOT):

    python3 collect_heldout.py install

  * npm (Node.js 20): each package in its own prefix $ROOT/npm/<dir> (<dir> =
    name without "@", "/" -> "__"), `npm install --prefix <dir> <pkg>@<ver>`,
    retried with --legacy-peer-deps and then also --ignore-scripts.
  * PyPI (Python 3.11): one venv per package, $ROOT/py/<package, "." -> "_">,
    `pip install <pkg>==<ver> <extra...>` (extra= below, e.g. "mcp<2").

Then:

    python3 collect_heldout.py --out benign-heldout.jsonl [--table]
"""

import argparse
import glob
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("MCP_COLLECT_ROOT", "/tmp/mcp-collect2")
PROTOCOL_VERSION = "2025-06-18"
CLIENT_INFO = {"name": "tooldefs-collector", "version": "1.0.0"}

D = "dummy"
AWS = {
    "AWS_ACCESS_KEY_ID": "AKIADUMMYDUMMYDUMMY0",
    "AWS_SECRET_ACCESS_KEY": D,
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "FASTMCP_LOG_LEVEL": "ERROR",
}

# name: short id prefix; npm/pypi: package; version: exact pinned version;
# bin: which bin (npm) or console script (pypi); entry: script path inside the
# npm package instead of a bin; extra: further pip requirements installed
# into the server's own venv; args/env: placeholders {tmp} (scratch dir) and {home} (scratch
# HOME); setup: extra preparation ("aws": a dummy ~/.aws profile); host_dependent: regex over a tool's JSON;
# matching tools describe the machine they run on and are left out;
# legacy_peer_deps: install with npm's --legacy-peer-deps from the start.
SERVERS = [
    # --- npm ---
    dict(name="1password", npm="@takescake/1password-mcp", version="4.0.2", env={"OP_SERVICE_ACCOUNT_TOKEN": "ops_dummy"}),
    dict(name="amap", npm="@amap/amap-maps-mcp-server", version="0.0.8", env={"AMAP_MAPS_API_KEY": D}),
    # Only tool categories: the default also loads an Actor's definition from the Apify API at startup.
    dict(name="apify", npm="@apify/actors-mcp-server", version="0.10.6", args=["--tools", "actors,docs,runs,storage"],
         env={"APIFY_TOKEN": D, "TELEMETRY_ENABLED": "false"}),
    dict(name="argocd", npm="argocd-mcp", version="0.9.0", args=["stdio"],
         env={"ARGOCD_BASE_URL": "http://127.0.0.1:9", "ARGOCD_API_TOKEN": D}),
    dict(name="azure-devops", npm="@tiberriver256/mcp-server-azure-devops", version="0.1.48",
         env={"AZURE_DEVOPS_ORG_URL": "http://127.0.0.1:9/dummy", "AZURE_DEVOPS_AUTH_METHOD": "pat", "AZURE_DEVOPS_PAT": D}),
    dict(name="bigquery", npm="@ergut/mcp-bigquery-server", version="1.0.4", args=["--project-id", D, "--location", "US"]),
    dict(name="bitbucket", npm="@nexus2520/bitbucket-mcp-server", version="3.0.0",
         env={"BITBUCKET_USERNAME": D, "BITBUCKET_APP_PASSWORD": D}),
    dict(name="brightdata", npm="@brightdata/mcp", version="2.11.3", env={"API_TOKEN": D}),
    dict(name="browserbase", npm="@browserbasehq/mcp-server-browserbase", version="2.4.3",
         env={"BROWSERBASE_API_KEY": D, "BROWSERBASE_PROJECT_ID": D, "GEMINI_API_KEY": D}),
    dict(name="cloud-run", npm="@google-cloud/cloud-run-mcp", version="1.10.0", env={"GCP_STDIO": "true"}),
    dict(name="code-runner", npm="mcp-server-code-runner", version="0.1.8"),
    # Two tools carry the current date/time as a parameter default; left out.
    dict(name="currents", npm="@currents/mcp", version="2.1.1", env={"CURRENTS_API_KEY": D},
         host_dependent=r'"default": "20\d\d-\d\d-\d\d'),
    dict(name="discord", npm="mcp-discord", version="1.3.4", env={"DISCORD_TOKEN": D}),
    dict(name="drawio", npm="@drawio/mcp", version="1.6.1"),
    dict(name="elasticsearch-elastic", npm="@elastic/mcp-server-elasticsearch", version="0.3.1",
         env={"ES_URL": "http://127.0.0.1:9", "ES_API_KEY": D}),
    dict(name="eslint", npm="@eslint/mcp", version="0.3.13"),
    dict(name="filesystem-agent-infra", npm="@agent-infra/mcp-server-filesystem", version="1.2.29",
         args=["--allowed-directories", "{tmp}"]),
    dict(name="gcp-observability", npm="@google-cloud/observability-mcp", version="0.2.3"),
    dict(name="grafana-leval", npm="@leval/mcp-grafana", version="1.1.7",
         env={"GRAFANA_URL": "http://127.0.0.1:9", "GRAFANA_API_KEY": D}),
    dict(name="hostinger", npm="hostinger-api-mcp", version="1.63.2", bin="hostinger-api-mcp", env={"API_TOKEN": D}),
    dict(name="instantdb", npm="@instantdb/mcp", version="1.0.67", args=["--token", D]),
    dict(name="lark", npm="@larksuiteoapi/lark-mcp", version="0.5.1", args=["mcp", "-a", D, "-s", D]),
    dict(name="line-bot", npm="@line/line-bot-mcp-server", version="0.4.2",
         env={"CHANNEL_ACCESS_TOKEN": D, "DESTINATION_USER_ID": D}),
    dict(name="mobile", npm="@mobilenext/mobile-mcp", version="1.0.4", env={"MOBILEMCP_DISABLE_TELEMETRY": "1"}),
    dict(name="monday", npm="@mondaydotcomorg/monday-api-mcp", version="3.3.0", args=["-t", D]),
    dict(name="ms-365", npm="@softeria/ms-365-mcp-server", version="0.155.0"),
    dict(name="netlify", npm="@netlify/mcp", version="1.15.1", env={"NETLIFY_PERSONAL_ACCESS_TOKEN": D}),
    dict(name="open-meteo", npm="open-meteo-mcp-server", version="1.1.3"),
    dict(name="postman", npm="@postman/postman-mcp-server", version="2.13.0",
         env={"POSTMAN_API_KEY": D, "POSTMAN_MCP_TELEMETRY": "false"}),
    dict(name="reddit", npm="reddit-mcp-buddy", version="1.1.14", bin="reddit-mcp-buddy"),
    dict(name="replicate", npm="replicate-mcp", version="0.9.0", env={"REPLICATE_API_TOKEN": D}),
    dict(name="resend", npm="resend-mcp", version="2.6.0", env={"RESEND_API_KEY": "re_dummy"}),
    dict(name="shopify-dev", npm="@shopify/dev-mcp", version="1.16.0"),
    dict(name="ssh", npm="ssh-mcp", version="2.11.0", args=["--host=127.0.0.1", "--port=9", "--user=dummy"],
         env={"SSH_MCP_PASSWORD": D}),
    dict(name="trello", npm="@delorenj/mcp-server-trello", version="1.8.1", env={"TRELLO_API_KEY": D, "TRELLO_TOKEN": D}),
    # The account SID and API key only need the right shape (AC/SK + 32 hex digits).
    dict(name="twilio", npm="@twilio-alpha/mcp", version="0.7.0", args=["AC" + "0" * 32 + "/SK" + "0" * 32 + ":dummy"]),
    dict(name="weather-multi", npm="@dangahagan/weather-mcp", version="1.23.0", env={"ANALYTICS_ENABLED": "false"}),
    dict(name="weather-nws", npm="@h1deya/mcp-server-weather", version="0.1.3"),
    dict(name="wikipedia", npm="wikipedia-mcp", version="1.0.3"),
    dict(name="youtube-transcript", npm="@kimtaeyoon83/mcp-server-youtube-transcript", version="0.1.1"),
    # --- PyPI: one venv per server under $ROOT/py/<package with "." as "_"> ---
    dict(name="aws-billing", pypi="awslabs.billing-cost-management-mcp-server", version="0.0.42",
         bin="awslabs.billing-cost-management-mcp-server", env=AWS),
    dict(name="aws-cloudtrail", pypi="awslabs.cloudtrail-mcp-server", version="0.1.1",
         bin="awslabs.cloudtrail-mcp-server", env=AWS),
    dict(name="aws-document-loader", pypi="awslabs.document-loader-mcp-server", version="1.0.23",
         bin="awslabs.document-loader-mcp-server", env=AWS),
    dict(name="aws-ecs", pypi="awslabs.ecs-mcp-server", version="0.1.37", bin="ecs-mcp-server", env=AWS),
    dict(name="aws-finch", pypi="awslabs.finch-mcp-server", version="0.2.0", bin="awslabs.finch-mcp-server", env=AWS),
    dict(name="aws-location", pypi="awslabs.aws-location-mcp-server", version="2.1.1",
         bin="awslabs.aws-location-mcp-server", env=AWS),
    dict(name="aws-memcached", pypi="awslabs.memcached-mcp-server", version="1.1.1", bin="awslabs.memcached-mcp-server",
         env=dict(AWS, MEMCACHED_HOST="127.0.0.1", MEMCACHED_PORT="9")),
    dict(name="aws-mq", pypi="awslabs.amazon-mq-mcp-server", version="2.1.1", bin="awslabs.amazon-mq-mcp-server",
         env=AWS, setup="aws"),
    dict(name="aws-postgres", pypi="awslabs.postgres-mcp-server", version="1.2.2", bin="awslabs.postgres-mcp-server",
         env=AWS),
    dict(name="aws-redshift", pypi="awslabs.redshift-mcp-server", version="0.1.2", bin="awslabs.redshift-mcp-server",
         env=AWS),
    dict(name="aws-serverless", pypi="awslabs.aws-serverless-mcp-server", version="0.2.0",
         bin="awslabs.aws-serverless-mcp-server", env=AWS),
    dict(name="aws-sns-sqs", pypi="awslabs.amazon-sns-sqs-mcp-server", version="2.1.1",
         bin="awslabs.amazon-sns-sqs-mcp-server", env=AWS, setup="aws"),
    dict(name="aws-support", pypi="awslabs.aws-support-mcp-server", version="0.1.23",
         bin="awslabs.aws-support-mcp-server", env=AWS),
    dict(name="aws-valkey", pypi="awslabs.valkey-mcp-server", version="1.1.1", bin="awslabs.valkey-mcp-server",
         env=dict(AWS, VALKEY_HOST="127.0.0.1", VALKEY_PORT="9")),
    dict(name="bitcoin", pypi="bitcoin-mcp", version="0.5.2", bin="bitcoin-mcp"),
    dict(name="cli", pypi="cli-mcp-server", version="0.2.5", bin="cli-mcp-server", extra=["mcp<2"],
         env={"ALLOWED_DIR": "{tmp}", "ALLOWED_COMMANDS": "ls,cat,pwd"}),
    dict(name="elasticsearch", pypi="elasticsearch-mcp-server", version="2.1.6", bin="elasticsearch-mcp-server",
         env={"ELASTICSEARCH_HOSTS": "http://127.0.0.1:9", "ELASTICSEARCH_USERNAME": D, "ELASTICSEARCH_PASSWORD": D}),
    dict(name="google-analytics", pypi="analytics-mcp", version="0.8.0", bin="analytics-mcp"),
    dict(name="google-workspace", pypi="workspace-mcp", version="2.2.1", bin="workspace-mcp",
         env={"GOOGLE_OAUTH_CLIENT_ID": "dummy.apps.googleusercontent.com", "GOOGLE_OAUTH_CLIENT_SECRET": D}),
    dict(name="grafana", pypi="mcp-grafana", version="2.1.1", bin="mcp-grafana",
         env={"GRAFANA_URL": "http://127.0.0.1:9", "GRAFANA_API_KEY": D, "GRAFANA_SERVICE_ACCOUNT_TOKEN": D}),
    dict(name="home-assistant", pypi="ha-mcp", version="3.5.1", bin="ha-mcp",
         env={"HOMEASSISTANT_URL": "http://127.0.0.1:9", "HOMEASSISTANT_TOKEN": D}),
    dict(name="jenkins", pypi="mcp-jenkins", version="3.6.0", bin="mcp-jenkins",
         args=["--jenkins-url", "http://127.0.0.1:9", "--jenkins-username", D, "--jenkins-password", D]),
    dict(name="mysql", pypi="mysql-mcp-server", version="0.4.4", bin="mysql_mcp_server",
         env={"MYSQL_HOST": "127.0.0.1", "MYSQL_PORT": "9", "MYSQL_USER": D, "MYSQL_PASSWORD": D, "MYSQL_DATABASE": D}),
    dict(name="opensearch", pypi="opensearch-mcp-server-py", version="0.12.0", bin="opensearch-mcp-server-py",
         env={"OPENSEARCH_URL": "http://127.0.0.1:9", "OPENSEARCH_USERNAME": D, "OPENSEARCH_PASSWORD": D}),
    dict(name="pandoc", pypi="mcp-pandoc", version="0.11.1", bin="mcp-pandoc"),
    dict(name="powerpoint", pypi="office-powerpoint-mcp-server", version="2.0.7", bin="ppt_mcp_server", extra=["mcp<2"]),
    dict(name="rabbitmq", pypi="mcp-server-rabbitmq", version="2.2.0", bin="mcp-server-rabbitmq",
         extra=["mcp<2", "fastmcp<2.12"],
         args=["--rabbitmq-host", "127.0.0.1", "--port", "9", "--username", D, "--password", D]),
    dict(name="servicenow", pypi="mfa-servicenow-mcp", version="1.25.4", bin="servicenow-mcp",
         env={"SERVICENOW_INSTANCE_URL": "http://127.0.0.1:9", "SERVICENOW_USERNAME": D, "SERVICENOW_PASSWORD": D,
              "SERVICENOW_AUTH_TYPE": "basic"}),
    dict(name="text-editor", pypi="mcp-text-editor", version="1.0.2", bin="mcp-text-editor", extra=["mcp<2"]),
    dict(name="tree-sitter", pypi="mcp-server-tree-sitter", version="0.7.0", bin="mcp-server-tree-sitter", extra=["mcp<2"]),
    dict(name="wikipedia-py", pypi="mcp-server-wikipedia", version="0.5.5", bin="mcp-server-wikipedia"),
    dict(name="word", pypi="office-word-mcp-server", version="1.1.11", bin="word_mcp_server"),
    dict(name="yahoo-finance", pypi="mcp-yahoo-finance", version="0.2.0", bin="mcp-yahoo-finance"),
]

# Licenses (SPDX ids, or the first line of a shipped license file) that permit
# redistribution of the text.
PERMISSIVE = re.compile(
    r"^(MIT|ISC|Apache-2\.0|BSD-2-Clause|BSD-3-Clause|0BSD|Unlicense|CC0-1\.0|"
    r"The MIT License \(MIT\)|MIT License|Apache License|Apache Software License)(?![A-Za-z0-9])"
)


def prefix_dir(pkg):
    return os.path.join(ROOT, "npm", pkg.lstrip("@").replace("/", "__"))


def venv_dir(spec):
    if "pypi" not in spec:
        return os.path.join(ROOT, "py", "_none")
    return os.path.join(ROOT, "py", spec.get("venv") or spec["pypi"].replace(".", "_"))


def site_packages(spec):
    hits = glob.glob(os.path.join(venv_dir(spec), "lib", "python3*", "site-packages"))
    return hits[0] if hits else None


def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def license_file_head(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip().lstrip("#").strip()
                if line:
                    return line
    except OSError:
        pass
    return None


def npm_meta(spec):
    """(installed version, license string, path to package dir)."""
    pdir = os.path.join(prefix_dir(spec["npm"]), "node_modules", spec["npm"])
    with open(os.path.join(pdir, "package.json"), encoding="utf-8") as f:
        pj = json.load(f)
    lic = pj.get("license")
    if isinstance(lic, dict):
        lic = lic.get("type")
    if not lic or lic.startswith("SEE LICENSE"):
        files = sorted(glob.glob(os.path.join(pdir, "LICEN[CS]E*")))
        head = license_file_head(files[0]) if files else None
        lic = (lic + "; " if lic else "") + (
            f"{os.path.basename(files[0])}: {head}" if head else "no license file")
    return pj["version"], lic, pdir, pj


def pypi_meta(spec):
    sp = site_packages(spec)
    if not sp:
        raise FileNotFoundError("venv missing")
    for md in glob.glob(os.path.join(sp, "*.dist-info", "METADATA")):
        fields = {}
        classifiers = []
        license_files = []
        with open(md, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line in ("\n", "\r\n"):
                    break
                k, _, v = line.partition(":")
                v = v.strip()
                if k == "Classifier" and v.startswith("License"):
                    classifiers.append(v.split("::")[-1].strip())
                elif k == "License-File":
                    license_files.append(v)
                elif k in ("Name", "Version", "License", "License-Expression"):
                    fields.setdefault(k, v)
        if norm(fields.get("Name", "")) != norm(spec["pypi"]):
            continue
        lic = fields.get("License-Expression") or fields.get("License") or (classifiers[0] if classifiers else "")
        if not lic and license_files:
            d = os.path.dirname(md)
            for cand in (os.path.join(d, "licenses", license_files[0]), os.path.join(d, license_files[0])):
                head = license_file_head(cand)
                if head:
                    lic = f"License-File {license_files[0]}: {head}"
                    break
        return fields["Version"], lic or "", fields["Name"]
    raise FileNotFoundError(f"{spec['pypi']} not installed in {venv_dir(spec)}")


def license_ok(lic):
    lic = lic or ""
    if PERMISSIVE.match(lic):
        return True
    m = re.search(r"(?:LICEN[CS]E[^:]*|License-File [^:]+): (.*)$", lic)
    return bool(m and PERMISSIVE.match(m.group(1)))


def npm_command(spec, pdir, pj):
    bins = pj.get("bin")
    if "entry" in spec:
        rel = spec["entry"]
    elif isinstance(bins, str):
        rel = bins
    elif isinstance(bins, dict) and bins:
        rel = bins[spec["bin"]] if "bin" in spec else next(iter(bins.values()))
    else:
        rel = pj.get("main", "index.js")
    return ["node", os.path.join(pdir, rel)]


def setup_scratch(spec, tmp):
    kind = spec.get("setup")
    if kind == "git":
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo, exist_ok=True)
        env = dict(os.environ, GIT_AUTHOR_NAME="d", GIT_AUTHOR_EMAIL="d@example.com",
                   GIT_COMMITTER_NAME="d", GIT_COMMITTER_EMAIL="d@example.com", HOME=tmp)
        subprocess.run(["git", "init", "-q", repo], check=True, env=env)
        with open(os.path.join(repo, "README"), "w") as f:
            f.write("scratch\n")
        subprocess.run(["git", "-C", repo, "add", "README"], check=True, env=env)
        subprocess.run(["git", "-C", repo, "commit", "-q", "-m", "init"], check=True, env=env)
    elif kind == "aws":
        aws_dir = os.path.join(tmp, "home", ".aws")
        os.makedirs(aws_dir, exist_ok=True)
        with open(os.path.join(aws_dir, "config"), "w") as f:
            f.write("[default]\nregion = us-east-1\n")
        with open(os.path.join(aws_dir, "credentials"), "w") as f:
            f.write("[default]\naws_access_key_id = AKIADUMMYDUMMYDUMMY0\naws_secret_access_key = dummy\n")
    elif kind == "kubeconfig":
        with open(os.path.join(tmp, "kubeconfig"), "w") as f:
            f.write(
                "apiVersion: v1\nkind: Config\ncurrent-context: dummy\n"
                "clusters:\n- name: dummy\n  cluster:\n    server: https://127.0.0.1:9\n"
                "contexts:\n- name: dummy\n  context:\n    cluster: dummy\n    user: dummy\n"
                "users:\n- name: dummy\n  user:\n    token: dummy\n"
            )
    elif kind == "gdrive":
        keys = {"installed": {"client_id": "dummy.apps.googleusercontent.com", "client_secret": D,
                              "redirect_uris": ["http://localhost"], "auth_uri": "http://127.0.0.1:9/auth",
                              "token_uri": "http://127.0.0.1:9/token", "project_id": D}}
        creds = {"access_token": D, "refresh_token": D, "token_type": "Bearer", "expiry_date": 4102444800000,
                 "scope": "https://www.googleapis.com/auth/drive.readonly"}
        for name, obj in (("gcp-oauth.keys.json", keys), ("gdrive-credentials.json", creds),
                          ("gmail-credentials.json", creds)):
            with open(os.path.join(tmp, name), "w") as f:
                json.dump(obj, f)


def subst(value, tmp, home):
    return value.replace("{tmp}", tmp).replace("{home}", home)


class Session:
    def __init__(self, argv, env, cwd):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=cwd, start_new_session=True)
        self.msgs = queue.Queue()
        self.stderr_tail = []
        self.noise = 0
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", errors="replace").strip()
            if not line:
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                self.noise += 1
                continue
            if isinstance(msg, dict):
                self.msgs.put(msg)
        self.msgs.put(None)

    def _read_stderr(self):
        for raw in self.proc.stderr:
            self.stderr_tail.append(raw.decode("utf-8", errors="replace").rstrip())
            del self.stderr_tail[:-20]

    def send(self, obj):
        self.proc.stdin.write((json.dumps(obj) + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def request(self, rid, method, params, deadline):
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"timed out waiting for {method}")
            try:
                msg = self.msgs.get(timeout=left)
            except queue.Empty:
                raise TimeoutError(f"timed out waiting for {method}")
            if msg is None:
                raise RuntimeError(f"server exited (code {self.proc.poll()}) before answering {method}")
            if "method" in msg and "id" in msg:  # a request from the server
                result = {"roots": []} if msg["method"] == "roots/list" else {}
                if msg["method"] in ("ping", "roots/list"):
                    self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
                else:
                    self.send({"jsonrpc": "2.0", "id": msg["id"],
                               "error": {"code": -32601, "message": "not supported"}})
                continue
            if msg.get("id") == rid and "method" not in msg:
                if "error" in msg:
                    raise RuntimeError(f"{method} error: {json.dumps(msg['error'])[:300]}")
                return msg.get("result", {})

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(timeout=3)
                    break
                except subprocess.TimeoutExpired:
                    pass


def collect_one(spec, timeout):
    """Returns (source, license, tools, server_info)."""
    if "npm" in spec:
        version, lic, pdir, pj = npm_meta(spec)
        argv = npm_command(spec, pdir, pj)
        source = f"npm:{spec['npm']}@{version}"
    else:
        version, lic, dist_name = pypi_meta(spec)
        argv = [os.path.join(venv_dir(spec), "bin", spec["bin"])]
        source = f"pypi:{spec['pypi']}=={version}"
    if version != spec["version"]:
        print(f"  note: {spec['name']} installed {version}, pinned {spec['version']}", file=sys.stderr)
    # A fixed scratch path (not mkdtemp) so that descriptions which mention the
    # working directory come out the same on every run.
    tmp = os.path.join(ROOT, "scratch", spec["name"])
    shutil.rmtree(tmp, ignore_errors=True)
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    try:
        setup_scratch(spec, tmp)
        env = {
            "PATH": os.path.join(venv_dir(spec), "bin") + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home, "LANG": "C.UTF-8", "TMPDIR": tmp, "PYTHONUNBUFFERED": "1", "PYTHONHASHSEED": "0",
            "NO_UPDATE_NOTIFIER": "1", "DO_NOT_TRACK": "1", "NODE_NO_WARNINGS": "1",
        }
        env.update({k: subst(v, tmp, home) for k, v in spec.get("env", {}).items()})
        argv = argv + [subst(a, tmp, home) for a in spec.get("args", [])]
        sess = Session(argv, env, tmp)
        deadline = time.monotonic() + timeout
        try:
            init = sess.request(1, "initialize", {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                                                  "clientInfo": CLIENT_INFO}, deadline)
            sess.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            tools, cursor, rid = [], None, 2
            while True:
                params = {"cursor": cursor} if cursor else {}
                res = sess.request(rid, "tools/list", params, deadline)
                tools.extend(res.get("tools", []))
                cursor = res.get("nextCursor")
                rid += 1
                if not cursor or rid > 200:
                    break
        except Exception as e:
            tail = " | ".join(line for line in sess.stderr_tail[-4:] if line)[:600]
            raise RuntimeError(f"{e}; stderr: {tail}") from None
        finally:
            sess.close()
        return source, lic, tools, init.get("serverInfo", {})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def install(specs):
    env = dict(os.environ, PUPPETEER_SKIP_DOWNLOAD="1", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD="1")
    for spec in specs:
        if "npm" in spec:
            d = prefix_dir(spec["npm"])
            os.makedirs(d, exist_ok=True)
            cmd = ["npm", "install", "--prefix", d, "--no-audit", "--no-fund", f"{spec['npm']}@{spec['version']}"]
            for extra in ([], ["--legacy-peer-deps"], ["--legacy-peer-deps", "--ignore-scripts"]):
                print("+", " ".join(cmd + extra), file=sys.stderr)
                if subprocess.run(cmd + extra, env=env).returncode == 0:
                    break
            else:
                print(f"install failed: {spec['npm']}", file=sys.stderr)
        else:
            vd = venv_dir(spec)
            if not os.path.exists(os.path.join(vd, "bin", "python")):
                subprocess.run([sys.executable, "-m", "venv", vd], check=True)
            cmd = [os.path.join(vd, "bin", "pip"), "install", f"{spec['pypi']}=={spec['version']}"] + spec.get("extra", [])
            print("+", " ".join(cmd), file=sys.stderr)
            if subprocess.run(cmd).returncode != 0:
                print(f"install failed: {spec['pypi']}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", nargs="?", default="collect", choices=["collect", "install"])
    ap.add_argument("--only", help="comma-separated server names")
    ap.add_argument("--timeout", type=float, default=90.0, help="seconds per server")
    ap.add_argument("--jobs", type=int, default=2, help="servers run at once")
    ap.add_argument("--out", help="output path (default: benign-heldout.jsonl beside this script, "
                                  "or none with --only)")
    ap.add_argument("--table", action="store_true", help="print a markdown table of the servers")
    args = ap.parse_args()

    specs = SERVERS
    if args.only:
        wanted = set(args.only.split(","))
        specs = [s for s in SERVERS if s["name"] in wanted]
        unknown = wanted - {s["name"] for s in specs}
        if unknown:
            ap.error(f"unknown servers: {', '.join(sorted(unknown))}")
    if args.command == "install":
        install(specs)
        return
    out = args.out or (None if args.only else os.path.join(HERE, "benign-heldout.jsonl"))

    results = {}
    lock = threading.Lock()
    todo = list(specs)

    def worker():
        while True:
            with lock:
                if not todo:
                    return
                spec = todo.pop(0)
            t0 = time.monotonic()
            try:
                r = collect_one(spec, args.timeout)
                msg = f"ok {spec['name']}: {len(r[2])} tools ({time.monotonic() - t0:.1f}s)"
            except Exception as e:  # noqa: BLE001 - report and go on
                r = e
                msg = f"FAIL {spec['name']}: {e}"
            with lock:
                results[spec["name"]] = r
                print(msg, file=sys.stderr)

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    rows, table = [], []
    for spec in specs:
        r = results[spec["name"]]
        if isinstance(r, Exception):
            continue
        source, lic, tools, _info = r
        if not license_ok(lic):
            print(f"skip {spec['name']}: license {lic!r} not in the permissive list", file=sys.stderr)
            continue
        seen, kept, dups, host = set(), 0, 0, []
        host_re = re.compile(spec["host_dependent"]) if spec.get("host_dependent") else None
        for tool in tools:
            key = json.dumps(tool, sort_keys=True, ensure_ascii=False)
            if key in seen:
                dups += 1
                continue
            seen.add(key)
            if host_re and host_re.search(key):
                host.append(tool.get("name"))
                continue
            kept += 1
            rows.append((f"{spec['name']}/{tool.get('name')}", key,
                         {"id": f"{spec['name']}/{tool.get('name')}", "source": source, "tool": tool}))
        if dups:
            print(f"  {spec['name']}: dropped {dups} exact duplicate tool objects", file=sys.stderr)
        if host:
            print(f"  {spec['name']}: left out {len(host)} host-dependent tools: {', '.join(host)}",
                  file=sys.stderr)
        pkg, _, ver = source.partition(":")[2].rpartition("==" if source.startswith("pypi:") else "@")
        table.append((spec["name"], source.split(":")[0], pkg.rstrip("="), ver, lic, kept))
    rows.sort(key=lambda r: (r[0], r[1]))
    if out:
        with open(out, "w", encoding="utf-8") as f:
            for _id, _key, obj in rows:
                f.write(json.dumps(obj, ensure_ascii=False) + "\n")
        print(f"wrote {len(rows)} tools from {len(table)} servers to {out}", file=sys.stderr)
    else:
        print(f"{len(rows)} tools from {len(table)} servers (not written)", file=sys.stderr)
    if args.table:
        print("| server | registry | package | version | license | tools |")
        print("| --- | --- | --- | --- | --- | ---: |")
        for name, reg, pkg, ver, lic, n in sorted(table):
            print(f"| {name} | {reg} | `{pkg}` | {ver} | {lic} | {n} |")


if __name__ == "__main__":
    main()
