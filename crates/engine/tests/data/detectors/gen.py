#!/usr/bin/env python3
"""Generates the labelled detector corpora secrets.jsonl and pii.jsonl.

Every secret and personal datum here is fake: random values with the right
shape, with valid checksums where the format has one (GitHub CRC-32, age
Bech32, Luhn, IBAN mod-97). The output is committed; rerunning this script
with the same seed reproduces it byte for byte:

    python3 crates/engine/tests/data/detectors/gen.py

Each line is {"text": ..., "expect": [detector ids that must fire]}; an
empty list means no detector of that family may fire.
"""

import base64
import json
import os
import random
import re
import string
import zlib

R = random.Random(20240501)
HERE = os.path.dirname(os.path.abspath(__file__))

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def rs(alphabet, n):
    return "".join(R.choice(alphabet) for _ in range(n))


def b64(raw):
    return base64.b64encode(raw).decode()


def b64url(raw):
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def rand_bytes(n):
    return bytes(R.randrange(256) for _ in range(n))


# --- Token generators -------------------------------------------------------

B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def base62_6(n):
    out = ""
    for _ in range(6):
        out = B62[n % 62] + out
        n //= 62
    return out


def github(prefix):
    body = rs(ALNUM, 30)
    return f"{prefix}_{body}{base62_6(zlib.crc32(body.encode()))}"


def github_bad_checksum(prefix):
    return f"{prefix}_{rs(ALNUM, 36)}"


BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def bech32_polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((top >> i) & 1) else 0
    return chk


def age_key():
    hrp = "age-secret-key-"
    raw = rand_bytes(32)
    acc, bits, data = 0, 0, []
    for b in raw:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            data.append((acc >> bits) & 31)
    if bits:
        data.append((acc << (5 - bits)) & 31)
    values = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + data
    poly = bech32_polymod(values + [0] * 6) ^ 1
    data += [(poly >> 5 * (5 - i)) & 31 for i in range(6)]
    return (hrp + "1" + "".join(BECH32[d] for d in data)).upper()


def aws_id(prefix="AKIA"):
    return prefix + rs(UPPER + "234567", 16)


def aws_secret():
    while True:
        s = rs(ALNUM + "+/", 40)
        if any(c.isupper() for c in s) and any(c.islower() for c in s):
            return s


def jwt(claims=None, alg="HS256"):
    header = b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    claims = claims or {
        "sub": str(R.randrange(10**5, 10**6)),
        "iat": 1700000000 + R.randrange(10**6),
        "exp": 1710000000 + R.randrange(10**6),
        "scope": R.choice(["read", "read write", "admin"]),
    }
    payload = b64url(json.dumps(claims, separators=(",", ":")).encode())
    return f"{header}.{payload}.{b64url(rand_bytes(32))}"


def discord():
    snowflake = str(R.randrange(10**17, 10**19))
    ident = b64(snowflake.encode()).rstrip("=")
    return f"{ident}.{rs(B64URL, 6)}.{rs(B64URL, R.choice([27, 38]))}"


def private_key_block(kind="RSA ", lines=12):
    body = "\n".join(b64(rand_bytes(48)) for _ in range(lines))
    return f"-----BEGIN {kind}PRIVATE KEY-----\nMIIEpAIBAAKCAQEA{body}\n-----END {kind}PRIVATE KEY-----"


def openssh_key():
    body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    body += "\n".join(b64(rand_bytes(51)) for _ in range(5))
    return f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----"


def azure_client_secret():
    cls = ALNUM + "_~.-"
    return rs(ALNUM, 3) + R.choice(DIGITS) + "Q~" + rs(cls, 33) + R.choice(ALNUM)


def uuid():
    h = rs(HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


GEN = {
    "aws_access_key_id": lambda: aws_id(R.choice(["AKIA", "AKIA", "ASIA"])),
    "gcp_api_key": lambda: "AIza" + rs(ALNUM + "-_", 35),
    "gcp_oauth_client_secret": lambda: "GOCSPX-" + rs(ALNUM + "-_", 28),
    "gcp_oauth_access_token": lambda: "ya29.a0" + rs(ALNUM + "-_", 150),
    "azure_client_secret": azure_client_secret,
    "digitalocean_token": lambda: R.choice(["dop", "doo", "dor"]) + "_v1_" + rs(HEX, 64),
    "github_pat": lambda: github("ghp"),
    "github_oauth_token": lambda: github("gho"),
    "github_app_token": lambda: github(R.choice(["ghu", "ghs"])),
    "github_refresh_token": lambda: github("ghr"),
    "github_fine_grained_pat": lambda: "github_pat_11" + rs(UPPER + DIGITS, 20) + "_" + rs(ALNUM, 59),
    "gitlab_pat": lambda: "glpat-" + rs(ALNUM + "-_", 20),
    "gitlab_runner_token": lambda: R.choice(["glrt-", "GR1348941"]) + rs(ALNUM + "-_", 20),
    "npm_token": lambda: "npm_" + rs(ALNUM, 36),
    "pypi_token": lambda: "pypi-AgEIcHlwaS5vcmc" + rs(B64URL, 120),
    "slack_token": lambda: R.choice(
        [
            lambda: f"xoxb-{rs(DIGITS, 12)}-{rs(DIGITS, 13)}-{rs(ALNUM, 24)}",
            lambda: f"xoxp-{rs(DIGITS, 12)}-{rs(DIGITS, 12)}-{rs(DIGITS, 13)}-{rs(HEX, 32)}",
            lambda: f"xapp-1-A{rs(UPPER + DIGITS, 10)}-{rs(DIGITS, 13)}-{rs(HEX, 64)}",
        ]
    )(),
    "slack_webhook_url": lambda: f"https://hooks.slack.com/services/T{rs(UPPER + DIGITS, 8)}/B{rs(UPPER + DIGITS, 10)}/{rs(ALNUM, 24)}",
    "discord_bot_token": discord,
    "telegram_bot_token": lambda: f"{R.randrange(10**8, 10**10)}:AA{rs(B64URL, 33)}",
    "twilio_api_key": lambda: "SK" + rs(HEX, 32),
    "sendgrid_api_key": lambda: f"SG.{rs(B64URL, 22)}.{rs(B64URL, 43)}",
    "mailgun_api_key": lambda: "key-" + rs(HEX, 32),
    "mailchimp_api_key": lambda: rs(HEX, 32) + "-us" + str(R.randrange(1, 21)),
    "stripe_secret_key": lambda: "sk_live_51" + rs(ALNUM, 97),
    "stripe_restricted_key": lambda: "rk_live_51" + rs(ALNUM, 97),
    "stripe_webhook_secret": lambda: "whsec_" + rs(ALNUM, 32),
    "shopify_token": lambda: R.choice(["shpat_", "shpca_", "shppa_", "shpss_"]) + rs(HEX, 32),
    "openai_api_key": lambda: R.choice(
        [
            lambda: "sk-" + rs(ALNUM, 20) + "T3BlbkFJ" + rs(ALNUM, 20),
            lambda: "sk-proj-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74),
            lambda: "sk-svcacct-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74),
        ]
    )(),
    "anthropic_api_key": lambda: "sk-ant-api03-" + rs(B64URL, 93) + "AA",
    "huggingface_token": lambda: "hf_" + rs(UPPER + LOWER, 34),
    "groq_api_key": lambda: "gsk_" + rs(ALNUM, 52),
    "vault_token": lambda: "hvs.CAESI" + rs(B64URL, 86),
    "databricks_token": lambda: "dapi" + rs(HEX, 32),
    "pulumi_access_token": lambda: "pul-" + rs(HEX, 40),
    "doppler_token": lambda: R.choice(["dp.pt.", "dp.st.", "dp.sa."]) + rs(ALNUM, 43),
    "postman_api_key": lambda: f"PMAK-{rs(HEX, 24)}-{rs(HEX, 34)}",
    "grafana_token": lambda: R.choice(
        [
            lambda: f"glsa_{rs(ALNUM, 32)}_{rs(HEX, 8)}",
            lambda: "glc_" + b64(rand_bytes(96)),
        ]
    )(),
    "new_relic_key": lambda: "NRAK-" + rs(UPPER + DIGITS, 27),
    "linear_api_key": lambda: "lin_api_" + rs(ALNUM, 40),
    "sentry_token": lambda: R.choice(
        [
            lambda: "sntryu_" + rs(HEX, 64),
            lambda: "sntrys_" + b64(json.dumps({"iat": 1700000000, "url": "https://sentry.io", "org": "acme"}).encode()).rstrip("=") + "_" + rs(B64, 43),
        ]
    )(),
    "age_secret_key": age_key,
    "onepassword_token": lambda: "ops_" + b64(json.dumps({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": rs(B64URL, 22)}, "email": rs(LOWER, 12) + "@1passwordserviceaccounts.com", "srpX": rs(HEX, 64), "muk": {"alg": "A256GCM", "ext": True, "k": rs(B64URL, 43), "key_ops": ["encrypt", "decrypt"], "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + rs(UPPER + DIGITS, 6), "throttleSecret": {"seed": rs(HEX, 64), "deviceUuid": rs(LOWER + DIGITS, 26)}, "deviceUuid": rs(LOWER + DIGITS, 26)}).encode()).rstrip("="),
    "alibaba_access_key_id": lambda: "LTAI" + rs(ALNUM, R.choice([12, 16, 20])),
    "atlassian_api_token": lambda: "ATATT3xFfGF0" + rs(ALNUM + "-_", 171) + "=" + rs(HEX.upper(), 8),
    "clojars_token": lambda: "CLOJARS_" + rs(LOWER + DIGITS, 60),
    "dynatrace_token": lambda: f"dt0c01.{rs(UPPER + DIGITS, 24)}.{rs(UPPER + DIGITS, 64)}",
    "easypost_api_key": lambda: "EZAK" + rs(ALNUM, 54),
    "flyio_token": lambda: R.choice([lambda: "fo1_" + rs(B64URL, 43), lambda: "fm2_" + b64(rand_bytes(120))])(),
    "gitlab_token": lambda: R.choice(["gldt-", "glft-", "glsoat-", "glcbt-64_", "glptt-", "glimt-"]) + rs(ALNUM + "-_", 20),
    "heroku_api_key": lambda: "HRKU-AA" + rs(ALNUM + "-_", 58),
    "notion_token": lambda: "ntn_" + rs(DIGITS, 11) + rs(ALNUM, 35),
    "openshift_token": lambda: "sha256~" + rs(B64URL, 43),
    "perplexity_api_key": lambda: "pplx-" + rs(ALNUM, 48),
    "planetscale_token": lambda: R.choice(["pscale_tkn_", "pscale_oauth_", "pscale_pw_"]) + rs(ALNUM + "_", 43),
    "prefect_api_key": lambda: "pnu_" + rs(ALNUM, 36),
    "rubygems_api_key": lambda: "rubygems_" + rs(HEX, 48),
    "brevo_api_key": lambda: f"xkeysib-{rs(HEX, 64)}-{rs(ALNUM, 16)}",
    "shippo_token": lambda: "shippo_live_" + rs(HEX, 40),
    "square_token": lambda: R.choice([lambda: "EAAA" + rs(ALNUM + "-_", 60), lambda: "sq0atp-" + rs(ALNUM + "-_", 22), lambda: "sq0csp-" + rs(ALNUM + "-_", 43)])(),
    "docker_hub_token": lambda: "dckr_pat_" + rs(ALNUM + "-_", 27),
    "xai_api_key": lambda: "xai-" + rs(ALNUM, 80),
    "openrouter_api_key": lambda: "sk-or-v1-" + rs(HEX, 64),
    "langsmith_api_key": lambda: f"lsv2_{R.choice(['pt', 'sk'])}_{rs(HEX, 32)}_{rs(HEX, 10)}",
    "tavily_api_key": lambda: "tvly-" + R.choice(["", "dev-"]) + rs(ALNUM, 32),
    "replicate_api_token": lambda: "r8_" + rs(ALNUM, 37),
    "artifactory_token": lambda: R.choice([lambda: "AKCp" + rs(ALNUM, 69), lambda: reference_token()])(),
    "teams_webhook_url": lambda: f"https://acme.webhook.office.com/webhookb2/{uuid()}@{uuid()}/IncomingWebhook/{rs(HEX, 32)}/{uuid()}",
    "discord_webhook_url": lambda: f"https://discord.com/api/webhooks/{R.randrange(10**17, 10**19)}/{rs(B64URL, 68)}",
    "mapbox_secret_token": lambda: "sk." + b64url(json.dumps({"u": rs(LOWER, 8), "a": rs(LOWER + DIGITS, 25)}, separators=(",", ":")).encode()) + "." + rs(B64URL, 22),
}


def reference_token():
    while True:
        raw = b"reftkn:01:" + str(R.randrange(10**9, 10**10)).encode() + b":" + rs(ALNUM, 27).encode()
        t = b64(raw).rstrip("=")
        if len(t) == 64 and t.isalnum():
            return t

# Names under which a token is typically configured: (env name, detector-generic?)
ENV_NAMES = {
    "aws_access_key_id": "AWS_ACCESS_KEY_ID",
    "gcp_api_key": "GOOGLE_API_KEY",
    "gcp_oauth_client_secret": "GOOGLE_CLIENT_SECRET",
    "gcp_oauth_access_token": "GOOGLE_ACCESS_TOKEN",
    "azure_client_secret": "AZURE_CLIENT_SECRET",
    "digitalocean_token": "DIGITALOCEAN_TOKEN",
    "github_pat": "GITHUB_TOKEN",
    "github_oauth_token": "GH_OAUTH_TOKEN",
    "github_app_token": "GH_APP_TOKEN",
    "github_refresh_token": "GH_REFRESH_TOKEN",
    "github_fine_grained_pat": "GITHUB_PAT",
    "gitlab_pat": "GITLAB_TOKEN",
    "gitlab_runner_token": "RUNNER_TOKEN",
    "npm_token": "NPM_TOKEN",
    "pypi_token": "TWINE_PASSWORD",
    "slack_token": "SLACK_BOT_TOKEN",
    "slack_webhook_url": "SLACK_WEBHOOK_URL",
    "discord_bot_token": "DISCORD_TOKEN",
    "telegram_bot_token": "TELEGRAM_BOT_TOKEN",
    "twilio_api_key": "TWILIO_API_KEY",
    "sendgrid_api_key": "SENDGRID_API_KEY",
    "mailgun_api_key": "MAILGUN_API_KEY",
    "mailchimp_api_key": "MAILCHIMP_API_KEY",
    "stripe_secret_key": "STRIPE_SECRET_KEY",
    "stripe_restricted_key": "STRIPE_RESTRICTED_KEY",
    "stripe_webhook_secret": "STRIPE_WEBHOOK_SECRET",
    "shopify_token": "SHOPIFY_ACCESS_TOKEN",
    "openai_api_key": "OPENAI_API_KEY",
    "anthropic_api_key": "ANTHROPIC_API_KEY",
    "huggingface_token": "HF_TOKEN",
    "groq_api_key": "GROQ_API_KEY",
    "vault_token": "VAULT_TOKEN",
    "databricks_token": "DATABRICKS_TOKEN",
    "pulumi_access_token": "PULUMI_ACCESS_TOKEN",
    "doppler_token": "DOPPLER_TOKEN",
    "postman_api_key": "POSTMAN_API_KEY",
    "grafana_token": "GRAFANA_SERVICE_ACCOUNT_TOKEN",
    "new_relic_key": "NEW_RELIC_API_KEY",
    "linear_api_key": "LINEAR_API_KEY",
    "sentry_token": "SENTRY_AUTH_TOKEN",
    "age_secret_key": "SOPS_AGE_KEY",
    "onepassword_token": "OP_SERVICE_ACCOUNT_TOKEN",
    "alibaba_access_key_id": "ALIBABA_CLOUD_ACCESS_KEY_ID",
    "atlassian_api_token": "JIRA_API_TOKEN",
    "clojars_token": "CLOJARS_DEPLOY_TOKEN",
    "dynatrace_token": "DT_API_TOKEN",
    "easypost_api_key": "EASYPOST_API_KEY",
    "flyio_token": "FLY_API_TOKEN",
    "gitlab_token": "CI_DEPLOY_TOKEN",
    "heroku_api_key": "HEROKU_API_KEY",
    "notion_token": "NOTION_TOKEN",
    "openshift_token": "OPENSHIFT_TOKEN",
    "perplexity_api_key": "PERPLEXITY_API_KEY",
    "planetscale_token": "PLANETSCALE_SERVICE_TOKEN",
    "prefect_api_key": "PREFECT_API_KEY",
    "rubygems_api_key": "GEM_HOST_API_KEY",
    "brevo_api_key": "BREVO_API_KEY",
    "shippo_token": "SHIPPO_API_TOKEN",
    "square_token": "SQUARE_ACCESS_TOKEN",
    "docker_hub_token": "DOCKERHUB_TOKEN",
    "xai_api_key": "XAI_API_KEY",
    "openrouter_api_key": "OPENROUTER_API_KEY",
    "langsmith_api_key": "LANGSMITH_API_KEY",
    "tavily_api_key": "TAVILY_API_KEY",
    "replicate_api_token": "REPLICATE_API_TOKEN",
    "artifactory_token": "ARTIFACTORY_API_KEY",
    "teams_webhook_url": "TEAMS_WEBHOOK_URL",
    "discord_webhook_url": "DISCORD_WEBHOOK_URL",
    "mapbox_secret_token": "MAPBOX_SECRET_TOKEN",
}

SECRETISH = ("SECRET", "TOKEN", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL")
PASSWORDISH = ("PASSWORD", "PASSWD", "PASSPHRASE", "PWD")


def generic_labels(name, value):
    """The generic detectors that also fire for `name=value` (value is a real token)."""
    up = name.upper().replace("-", "_")
    out = []
    # The name describes something else when it ends in _ID, _URL, ….
    if up.endswith(("_ID", "_URL")):
        return out
    if identifier_like(value) or re.search(r"(?i)secret|token|password|passwd|api[_-]?key|credential", value):
        return out
    if any(w in up for w in PASSWORDISH) or up.endswith("_PASS"):
        out.append("password_assignment")
    elif any(w in up for w in SECRETISH) or (key_named(up) and key_value(value)):
        out.append("secret_assignment")
    return out


# Words before `_KEY` that name something other than a credential.
NOT_SECRET_KEYS = set("""public publishable pub primary foreign sort partition hash range cache
idempotency idempotent object s3 host ssh dedup dedupe dedupl lookup group row column message kms
index unique composite natural surrogate map dict hot shortcut keyboard translation i18n locale
label registry routing partitionkey bucket file record item entity state session storage redis
memcache queue stream topic event tracking dedupkey sign verify verification""".split())


def word_letters(s):
    upper = sum(c.isupper() for c in s)
    lower = sum(c.islower() for c in s)
    return min(upper, lower) * 4 <= upper + lower


def identifier_like(v):
    """Values the generic detectors read as identifiers (the engine's
    `is_wordlike_or_code`): snake_case with few digits and one dominant case
    (`CLOJARS_abc…`), or a dotted chain of such parts (`dt0c01.ABC….DEF…`)."""
    def ident(part):
        return bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part))

    def few_digits(part):
        return sum(c.isdigit() for c in part) * 3 <= len(part)

    if ident(v) and "_" in v and few_digits(v) and word_letters(v):
        return True
    return "." in v and all(ident(p) and (len(p) <= 8 or (few_digits(p) and word_letters(p))) for p in v.split("."))


def key_named(up):
    """A name that is only `…_KEY` (AZURE_STORAGE_KEY, MAPS_KEY), not a cache's."""
    if not up.endswith(("_KEY", "-KEY", ".KEY")):
        return False
    head = up[:-4]
    word = re.split(r"[_.-]", head)[-1].lower()
    whole = re.sub(r"[^a-z0-9]", "", head.lower())
    return bool(word) and (word not in NOT_SECRET_KEYS or (word == "storage" and whole != "storage"))


def key_value(v):
    """What a `…_KEY` value must be to count: 16+ characters with letters and
    digits, not a hash or UUID."""
    return (
        len(v) >= 16
        and any(c.isdigit() for c in v)
        and any(c.isalpha() for c in v)
        and not re.fullmatch(r"[0-9a-fA-F]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", v)
    )


secrets = []

# The class of credential or personal data the cases being written belong
# to (reported separately by the quality test), if any.
CLASS = None


def tagged(row):
    if CLASS:
        row["class"] = CLASS
    return row


def pos(text, *ids):
    secrets.append(tagged({"text": text, "expect": sorted(set(ids))}))


def neg(text):
    secrets.append(tagged({"text": text, "expect": []}))


# --- Secrets: positives, four contexts per provider token -------------------

for det, gen in GEN.items():
    name = ENV_NAMES[det]
    t1, t2, t3, t4 = gen(), gen(), gen(), gen()
    # .env line
    pos(f"{name}={t1}", det, *generic_labels(name, t1))
    # YAML config
    yaml_key = name.lower()
    pos(f"services:\n  worker:\n    environment:\n      {yaml_key}: {t2}\n      LOG_LEVEL: info", det, *generic_labels(yaml_key, t2))
    # Chat message, bare token
    pos(
        R.choice(
            [
                f"hey can you check why the deploy fails? I'm using {t3} and it says unauthorized",
                f"Found this in the old wiki page: {t3} -- is it still active?",
                f"oops I pasted the wrong thing, ignore {t3} please",
                f"the key is {t3}, rotate it after the demo",
            ]
        ),
        det,
    )
    # Log line / code, bare token
    pos(
        R.choice(
            [
                f'2024-03-12T09:14:55.201Z DEBUG client: using credential {t4} for upstream call',
                f'client = Client("{t4}")',
                f'{{"level":"warn","msg":"retrying with fallback credential","cred":"{t4}","attempt":2}}',
                f"[worker-3] init ok using {t4} region=eu-west-1",
            ]
        ),
        det,
    )

# AWS secret access key: only in assignment context.
for fmt in [
    "aws_secret_access_key = {s}",
    "AWS_SECRET_ACCESS_KEY={s}",
    'export AWS_SECRET_ACCESS_KEY="{s}"',
    '{{"AccessKeyId": "{i}", "SecretAccessKey": "{s}", "SessionToken": null}}',
    "[default]\naws_access_key_id = {i}\naws_secret_access_key = {s}\nregion = us-east-1",
    "  aws-secret-access-key: '{s}'",
]:
    i, s = aws_id(), aws_secret()
    text = fmt.format(s=s, i=i)
    # The name holds "secret", so the generic detector fires too.
    ids = ["aws_secret_access_key", "secret_assignment"]
    if "{i}" in fmt:
        ids.append("aws_access_key_id")
    pos(text, *ids)

# Azure storage connection strings.
for _ in range(4):
    acct = "st" + rs(LOWER + DIGITS, 10)
    key = b64(rand_bytes(64))
    pos(
        R.choice(
            [
                f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net",
                f'"AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key}"',
                f"az storage blob upload --account-name {acct} --account-key={key} -f app.zip -c releases",
            ]
        ),
        "azure_storage_key",
        "secret_assignment",
    )

# Private keys.
pos(private_key_block(), "private_key")
pos(private_key_block("EC ", 3), "private_key")
pos(private_key_block("", 16), "private_key")
pos("here's the deploy key, don't share:\n" + openssh_key(), "private_key")
# A PEM block holds spaces, so only the private key detector fires.
pos(json.dumps({"type": "service_account", "project_id": "acme-prod", "private_key": private_key_block("", 10) + "\n"}), "private_key")
pos(
    "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + "\n".join(b64(rand_bytes(48)) for _ in range(8)) + "\n-----END ENCRYPTED PRIVATE KEY-----",
    "private_key",
)
pos(
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGXa" + "\n".join(b64(rand_bytes(48)) for _ in range(8)) + "\n=Xq7d\n-----END PGP PRIVATE KEY BLOCK-----",
    "private_key",
)
pos("truncated paste: -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + b64(rand_bytes(96)), "private_key")

# JWTs.
for fmt, extra in [
    ("Authorization: Bearer {t}", ["bearer_token"]),
    ('{{"access_token": "{t}", "token_type": "Bearer", "expires_in": 3600}}', ["secret_assignment"]),
    ("Set-Cookie: session={t}; Path=/; HttpOnly; Secure", []),
    ("the id token I got back was {t}", []),
    ("curl https://api.acme.dev/v1/me -H 'Authorization: Bearer {t}'", ["bearer_token"]),
]:
    pos(fmt.format(t=jwt()), "jwt", *extra)
pos(f"token: {jwt(alg='RS256')}", "jwt", "secret_assignment")

# Bearer and Basic headers.
for _ in range(4):
    tok = rs(ALNUM, R.choice([32, 40, 48]))
    pos(R.choice([f"Authorization: Bearer {tok}", f'headers = {{"Authorization": "Bearer {tok}"}}', f"> GET /api/v2/orders HTTP/1.1\n> Host: api.shop.io\n> Authorization: Bearer {tok}"]), "bearer_token")
pos(f"curl -H 'authorization: bearer {rs(ALNUM + '._-', 36)}' https://internal.api/health", "bearer_token")
for user, pw in [("deploy", "Xy7!pQ2@vB"), ("admin", "nT4#kd93Lz"), ("svc-backup", "9fKq2LmZx81"), ("jenkins", "c0rr3ct-h0rse")]:
    cred = b64(f"{user}:{pw}".encode())
    pos(R.choice([f"Authorization: Basic {cred}", f"curl -H 'Authorization: Basic {cred}' https://registry.local/v2/", f'"headers": {{"Authorization": "Basic {cred}"}}']), "basic_auth_header")

# URLs and connection strings with passwords.
for url, extra in [
    (f"postgres://app_user:{rs(ALNUM, 14)}@db.internal:5432/app", []),
    (f"postgresql://reporting:{rs(ALNUM, 12)}@10.0.3.17/analytics?sslmode=require", []),
    (f"mongodb+srv://admin:{rs(ALNUM, 10)}%40{rs(ALNUM, 4)}@cluster0.ab1cd.mongodb.net/prod", []),
    (f"redis://:{rs(ALNUM, 16)}@cache.prod.svc:6379/0", []),
    (f"mysql://root:{rs(ALNUM, 12)}@127.0.0.1:3306/shop", []),
    (f"amqps://orders:{rs(ALNUM, 18)}@rabbit.acme.io/vhost", []),
    (f"smtp://mailer:{rs(ALNUM, 12)}@smtp.sendgrid.net:587", []),
]:
    pos(R.choice([f"DATABASE_URL={url}", f"connecting to {url} ...", f"  url: {url}", f"conn = psycopg2.connect('{url}')"]), "url_password", *extra)
gl = GEN["gitlab_pat"]()
pos(f"git clone https://oauth2:{gl}@gitlab.com/acme/infra.git", "url_password", "gitlab_pat")
gh = github("ghs")
# `x-access-token:<token>` is also a token assigned to a token-like name.
pos(f"remote: https://x-access-token:{gh}@github.com/acme/app.git", "url_password", "github_app_token", "secret_assignment")

# Passwords assigned to password-like names.
for line in [
    "DB_PASSWORD=Xk9#mP2$vLq",
    'spring.datasource.password=hR7#kLq9!z',
    '{"username": "svc_etl", "password": "S3cure!Pass#2024"}',
    "  password: 'Tq8@wLz3#Nv'",
    "PGPASSWORD=f8Kd02mZqP psql -h db -U app",
    "mysql_root_password: Zr4!q9Lm2x",
    'redis_passwd = "0mK3#pQ7vZ"',
    "--password=Qw9!xZ2#p4",
    "my wifi password: Blue-Monkey-47!",
    "login with admin / password: Gr8t-Sc0tt-99",
    'SMTP_PASSWORD="u7Yt5Rr4Ee3W"',
    "keystore.passphrase=Jm3$Lq8!tR5",
    "ldap_bind_pwd: 4nK!r9Qz2L",
    'connect(host="db", user="etl", password="n0t-S0-S3cret-77")',
    "jdbc:postgresql://db:5432/app?user=etl&password=Kp92xLmQ7v",
    "ANSIBLE_BECOME_PASSWORD=V8n#2Lq!wZ",
]:
    ids = ["password_assignment"]
    pos(line, *ids)

# Secrets assigned to secret-like names (no provider shape).
for line in [
    f"API_KEY={rs(ALNUM, 32)}",
    f'client_secret: "{rs(ALNUM + "-_", 40)}"',
    f'"apiKey": "{rs(HEX, 32)}"',
    f"SECRET_KEY_BASE={rs(HEX, 128)}",
    f"app.secret = {rs(ALNUM, 24)}",
    f'X-API-Key: {rs(ALNUM, 40)}',
    f'signing_key = "{b64(rand_bytes(32))}"',
    f"  vault_secret_id: {uuid()}",
    f"DJANGO_SECRET_KEY='{rs(ALNUM + '!@#%^*-_=+', 50)}'",
    f'const apiToken = "{rs(ALNUM, 36)}";',
    f"webhook_secret => '{rs(HEX, 40)}'",
    f"ENCRYPTION_KEY={b64(rand_bytes(32))}",
    f'auth_token: "{rs(HEX, 16)}"',
    f"credentials: {rs(ALNUM, 28)}",
    f"JWT_SECRET={rs(ALNUM, 64)}",
    f'{{"refresh_token": "{rs(ALNUM, 44)}", "expires_in": 7200}}',
]:
    pos(line, "secret_assignment")

# --- Passwords, keys and credentials in everyday places ---------------------

SAFE_SYMBOLS = "!#%*@?^+=~"


def password():
    """A password a person or a generator picks: a word, digits and a symbol,
    or random characters."""
    if R.random() < 0.5:
        word = R.choice(["Winter", "Summer", "Falcon", "Orchid", "Granite", "Maple", "Harbor", "Copper", "Willow", "Tundra"])
        return word + str(R.randrange(100, 9999)) + R.choice(SAFE_SYMBOLS)
    while True:
        v = rs(ALNUM, 1) + rs(ALNUM + SAFE_SYMBOLS, R.randrange(11, 19))
        if any(c.isdigit() for c in v) and any(c.isupper() for c in v) and any(c.islower() for c in v):
            return v


def azure_key():
    return b64(rand_bytes(64))


CLASS = "passwords"
for _ in range(3):
    pos(f"export DB_PASSWORD='{password()}'", "password_assignment")
    pos(f"PGPASSWORD={password()} psql -h db.internal -U app app", "password_assignment")
    pos(f"docker login -u deploy -p '{password()}' registry.acme.io", "credential_argument")
    pos(f"docker login --username deploy --password {password()} ghcr.io", "credential_argument")
    pos(R.choice([f"mysql -u root -p'{password()}' shop", f"mysql -h db -uroot -p{password()} -e 'select 1'"]), "credential_argument")
    pos(f"curl -u admin:{password()} https://api.internal/v1/users", "credential_argument")
    pos(f"sshpass -p '{password()}' ssh deploy@bastion", "credential_argument")
    pos(f"redis-cli -h cache.internal -a {password()} ping", "credential_argument")
    pos(f"sqlcmd -S db -U sa -P '{password()}' -Q \"SELECT 1\"", "credential_argument")
    pos(f"keytool -genkeypair -alias app -keystore app.jks -storepass {password()} -keypass {password()}", "credential_argument")
    pos(f"zip -P {password()} backup.zip db.sql", "credential_argument")
    pos(f"./migrate --db-password {password()} --host db", "credential_argument")
    pos(f'<add key="SmtpPassword" value="{password()}" />', "xml_credential")
    pos(f"<settings>\n  <user>deploy</user>\n  <password>{password()}</password>\n</settings>", "xml_credential")
    pos(f'<packageSourceCredentials><feed><add key="Username" value="ci" /><add key="ClearTextPassword" value="{password()}" /></feed></packageSourceCredentials>', "xml_credential")
    pos(f"[smtp]\nhost = mail.acme.io\npassword = {password()}", "password_assignment")
    pos(f'[database]\npassword = "{password()}"', "password_assignment")
    pos(f"database:\n  user: app\n  passwd: {password()}", "password_assignment")
    pos(f"DB_PASS={password()}", "password_assignment")
for _ in range(2):
    pw = password()
    pos(f"openssl pkcs12 -export -in cert.pem -inkey key.pem -passout pass:{pw} -out cert.p12", "credential_argument", "password_assignment")
    pos(f'<add key="StripeApiKey" value="{rs(ALNUM, 32)}"/>', "xml_credential")
    pos(f"gh api --token {rs(ALNUM, 36)} /user", "credential_argument")

# Names that end in KEY, Azure storage keys.
CLASS = "keys named KEY, Azure storage keys"
for _ in range(3):
    key = azure_key()
    pos(f"AZURE_STORAGE_KEY={key}", "azure_storage_key", "secret_assignment")
    pos(f"Storage account key for stacmeprod: {azure_key()}", "azure_storage_key")
    pos(f"MAPS_KEY={rs(ALNUM, 32)}", "secret_assignment")
    pos(f'{{"paymentsKey": "{rs(ALNUM, 40)}"}}', "secret_assignment")
    pos(f"LICENSE_KEY: {rs(UPPER + DIGITS, 5)}-{rs(UPPER + DIGITS, 5)}-{rs(UPPER + DIGITS, 5)}-{rs(UPPER + DIGITS, 5)}", "secret_assignment")

# AWS secret keys in prose and logs.
CLASS = "AWS secret keys in prose"
for _ in range(3):
    sec = aws_secret()
    while not any(c.isdigit() for c in sec):
        sec = aws_secret()
    text = R.choice([
        f"The AWS secret access key for the ci user is {sec}, rotate it after the demo",
        f"2024-05-01T10:00:01Z INFO aws: rotated credentials, secret {sec}",
        f"your AWS credentials are {aws_id()} / {sec}",
    ])
    pos(text, "aws_secret_access_key", *(["aws_access_key_id"] if "credentials are" in text else []))

# Private keys cut short.
CLASS = "private keys cut short"
pos("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "private_key")
pos("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI" + b64(rand_bytes(30))[:40], "private_key")
pos("-----BEGIN DSA PRIVATE KEY-----\nMIIBuwIBAAKBgQ" + b64(rand_bytes(24))[:26], "private_key")
pos("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBG" + b64(rand_bytes(24))[:28], "private_key")
pos("-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG9w0BBQwwDgQI" + b64(rand_bytes(12))[:16], "private_key")
pos("---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"rsa-key-20240501\"\nP2/56wAAAi4AAAA3aWYtbW9kbntzaWdue3JzYS1wa2NzMS1zaGExfSxlbmNyeXB0e3JzYS1wa2NzMXYyLW9hZXB9fQ" + b64(rand_bytes(30)), "private_key")
pos("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20240501\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI" + b64(rand_bytes(24)) + "\nPrivate-Lines: 1\nAAAAI" + b64(rand_bytes(30)), "private_key")
pos("cat ~/.ssh/id_rsa\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA" + b64(rand_bytes(30)) + "\n[output truncated]", "private_key")
CLASS = None

# --- Secrets: near-misses ----------------------------------------------------

# Documented example keys and placeholders.
for text in [
    "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "AKIAI44QH8DHBEXAMPLE is the sample key id used throughout the docs",
    "aws_access_key_id=AKIAXXXXXXXXXXXXXXXX",
    "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
    "stripe.api_key = 'sk_live_XXXXXXXXXXXXXXXXXXXXXXXX'",
    "OPENAI_API_KEY=<YOUR_API_KEY>",
    "OPENAI_API_KEY=${OPENAI_API_KEY}",
    "api_key: {{ secrets.API_KEY }}",
    "token: {{secret}}",
    "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "export GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "SLACK_BOT_TOKEN=xoxb-your-bot-token",
    "SLACK_BOT_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "The key looks like sk-... and you can create one in the dashboard",
    "Your key: sk-****abcd (created 2024-01-04)",
    "OPENAI_API_KEY=sk-proj-****************************************Xq9Z",
    "api_key: REDACTED",
    "password: ********",
    "Authorization: Bearer ***",
    "Authorization: Bearer <token>",
    "Authorization: Bearer $ACCESS_TOKEN",
    'curl -H "Authorization: Bearer ${GITHUB_TOKEN}" https://api.github.com/user',
    "Authorization: Bearer YOUR_ACCESS_TOKEN_HERE",
    "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;",
    "TELEGRAM_BOT_TOKEN=123456789:AAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "SENDGRID_API_KEY=SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "DIGITALOCEAN_TOKEN=dop_v1_0000000000000000000000000000000000000000000000000000000000000000",
    "HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "MAILGUN_API_KEY=key-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "export NPM_TOKEN=npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "ANTHROPIC_API_KEY=sk-ant-api03-...",
    "token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "Paste the JWT from jwt.io: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "private_key: |\n  -----BEGIN PRIVATE KEY-----\n  <paste your key here>\n  -----END PRIVATE KEY-----",
    "PRIVATE_KEY=\"-----BEGIN PRIVATE KEY-----\\nYOUR_KEY_HERE\\n-----END PRIVATE KEY-----\"",
]:
    neg(text)

# Fabricated GitHub tokens (checksum fails) and Stripe test-mode / publishable keys.
for fmt in ["fixture: {t}", "# fake token for unit tests {t}", 'assert not is_valid("{t}")', "made-up value {t} from the slides"]:
    neg(fmt.format(t=github_bad_checksum("ghp")))
neg(f"gho token from the tutorial: {github_bad_checksum('gho')}")
for _ in range(3):
    neg(f"stripe_test_mode=sk_test_51{rs(ALNUM, 97)}")
neg(f"const stripe = Stripe('pk_live_51{rs(ALNUM, 97)}');")
neg(f"publishableKey: pk_test_51{rs(ALNUM, 60)}")
neg(f"Stripe test key for CI: sk_test_4eC39HqLyjWDarjtT1zdp7dc")

# Connection strings with placeholder or default passwords.
for text in [
    "DATABASE_URL=postgres://user:password@localhost:5432/mydb",
    "mongodb://<username>:<password>@cluster0.mongodb.net/test",
    "redis://:***@cache.prod:6379",
    "mysql://root:${MYSQL_ROOT_PASSWORD}@db:3306/app",
    "postgres://postgres:postgres@localhost:5432/postgres",
    "amqp://guest:guest@localhost:5672/",
    "postgresql://USER:PASSWORD@HOST:PORT/DATABASE",
    "https://user:pass@example.com/private",
    "ftp://anonymous:changeme@ftp.acme.io/pub",
    "See https://docs.acme.io/connect#user:secret for the format",
    "postgres://app:{{ db_password }}@db:5432/app",
    "http://localhost:8080/api/v1/users",
    "Visit https://github.com/acme/app/pull/42 for details",
    "git@github.com:acme/infra.git",
    "smtp://mailer:%SMTP_PASSWORD%@smtp.acme.io:587",
]:
    neg(text)

# Public keys, certificates, SSH public keys.
pub_body = "\n".join(b64(rand_bytes(48)) for _ in range(6))
neg(f"-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A{pub_body}\n-----END PUBLIC KEY-----")
neg(f"-----BEGIN RSA PUBLIC KEY-----\nMIIBCgKCAQEA{pub_body}\n-----END RSA PUBLIC KEY-----")
neg(f"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE{pub_body}\n-----END CERTIFICATE-----")
neg(f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{rs(B64, 300)} deploy@ci-runner")
neg(f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64, 43)} alice@laptop")
neg(f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGXa{pub_body}\n=Ab12\n-----END PGP PUBLIC KEY BLOCK-----")
neg(f"-----BEGIN CERTIFICATE REQUEST-----\nMIICvDCCAaQCAQAwdzEL{pub_body}\n-----END CERTIFICATE REQUEST-----")

# Identifiers, hashes and blobs that look random but are not secrets.
for _ in range(6):
    neg(R.choice([
        f"request_id={uuid()} status=200 latency_ms=41",
        f"trace: {uuid()}",
        f'{{"id": "{uuid()}", "type": "order.created"}}',
        f"session_id: {uuid()}",
    ]))
for _ in range(6):
    sha = rs(HEX, 40)
    neg(R.choice([
        f"commit {sha}\nAuthor: Dev <dev@acme.io>\nDate:   Tue Mar 12 09:14:55 2024 +0000",
        f"Merge pull request #1234 from acme/fix-login ({sha[:7]})",
        f"pinned to {sha} in flake.lock",
        f"git checkout {sha}",
    ]))
for _ in range(6):
    h = rs(HEX, 64)
    neg(R.choice([
        f"image: ghcr.io/acme/api@sha256:{h}",
        f"sha256sum: {h}  release.tar.gz",
        f'"integrity": "sha512-{b64(rand_bytes(64))}"',
        f"checksum = \"{h}\"",
    ]))
for _ in range(4):
    neg(R.choice([
        f"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{rs(B64, 120)}==",
        f"attachment (base64): {b64(rand_bytes(90))}",
        f'"thumbnail": "{b64(rand_bytes(60))}"',
    ]))
neg(f"Twilio account SID: AC{rs(HEX, 32)}")
neg(f"TWILIO_ACCOUNT_SID=AC{rs(HEX, 32)}")
neg(f"AWS account 123456789012, role arn:aws:iam::123456789012:role/deploy, user AIDA{rs(UPPER + '234567', 16)}")
neg(f"instance i-0{rs(HEX, 16)} in subnet-{rs(HEX, 17)} (vpc-{rs(HEX, 8)})")
neg(f"Google Analytics id G-{rs(UPPER + DIGITS, 10)} and maps client id 123456789012-{rs(LOWER + DIGITS, 32)}.apps.googleusercontent.com")
neg(f"npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory")
neg(f"yarn.lock: resolved \"https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#{rs(HEX, 40)}\"")

# Names that describe secrets, not hold them; code; prose.
for text in [
    "max_tokens: 4096",
    '{"model": "gpt-4o", "max_tokens": 1024, "temperature": 0.2}',
    '"usage": {"prompt_tokens": 1532, "completion_tokens": 211, "total_tokens": 1743}',
    "token_type: bearer",
    "secretName: db-credentials",
    "      secretKeyRef:\n        name: api-secrets\n        key: stripe-key",
    "api_key_header: X-API-Key",
    "token_url: https://oauth2.googleapis.com/token",
    "SECRET_KEY_PATH=/etc/app/secrets/signing.key",
    'tokenizer: "cl100k_base"',
    '"secret": true,',
    "access_token_ttl: 3600",
    "password_min_length: 12",
    "def login(username: str, password: str) -> Session:",
    "password = request.form['password']",
    'token = os.environ["GITHUB_TOKEN"]',
    "const token = process.env.API_TOKEN;",
    "api_key = get_api_key()",
    "self.password = password",
    "if (password.length < 8) throw new Error('password: too short')",
    "password: required",
    "PASSWORD=changeme",
    "password=password123",
    "db_password: hunter2",
    "ADMIN_PASSWORD=admin",
    'api_key: "your-api-key-here"',
    "api_key = 'YOUR_API_KEY'",
    "token: <token>",
    "secret: my-super-secret-value",
    "client_secret: CLIENT_SECRET",
    "AUTH_TOKEN=$AUTH_TOKEN",
    'password: "%(db_password)s"',
    "set PASSWORD=%DB_PASSWORD%",
    "DB_PASSWORD=${DB_PASSWORD:-}",
    "The password must contain a digit and a symbol.",
    "Reset your password: click the link we sent you.",
    "Tokens are refreshed every 15 minutes; the secret is rotated monthly.",
    "I lost my api key, how do I create a new one?",
    "basic auth is enabled on the staging ingress",
    'WWW-Authenticate: Basic realm="Restricted"',
    "Authorization: Basic dXNlcjpwYXNzd29yZA==",
    "the bearer of this certificate is entitled to one free coffee",
    "pwd: /home/runner/work/app",
    "PWD=/Users/alice/src/palisade",
    "token_endpoint: https://login.acme.io/oauth/token",
    "secret_version: 3",
    "api_key_id: 7",
    "passwordless: true",
    "password_hash: $2b$12$KIXQJ8lD1tUS4HzKcNmD9eKx0S2cR4wW5t1JgGZ8vYyq6m3a7b9cO",
    "token: 123456",
    "secret = 42",
    "api_key: null",
    "token=abc123",
    "Bearer authentication uses an opaque string; see RFC 6750.",
    "eyJhbGciOiJub25lIn0 is just a base64 header",
    f"eyJ{rs(B64URL, 30)}.eyJ{rs(B64URL, 40)}.{rs(B64URL, 43)}",
    "Version 2.14.3 released on 2024-03-12 (build 20240312.1)",
    "Order #A-99812-XK shipped, tracking 1Z999AA10123456784",
    "Meeting on 2024-05-01 at 10:30, room 4B",
    "sk-learn and scikit-learn are the same package",
    "key-value stores such as Redis and etcd",
    "SKU: SK1200-BLK-XL",
]:
    neg(text)

# Masked and truncated values.
for text in [
    "AWS_ACCESS_KEY_ID=AKIA****************",
    "ghp_****************************1a2b (expires in 7 days)",
    "Using key sk_live_...4242",
    "stripe key ending in 4242",
    "Slack token: xoxb-****",
    "token=••••••••••••3f9a",
    "api_key: sk-...abcd",
    "password: ••••••••",
]:
    neg(text)


# Near misses of the classes above: references, prompts, masks, docs values,
# flags that take no password, keys that are not credentials.
CLASS = "near misses of these classes"
for text in [
    "docker login --password-stdin -u deploy < token.txt",
    "mysql -u root -p shop",
    "mysql -u root -p$MYSQL_ROOT_PASSWORD shop",
    'curl -u "$API_USER:$API_PASS" https://api.internal',
    "curl -u admin:admin http://localhost:8080",
    "curl -u user:password https://httpbin.org/basic-auth/user/password",
    "curl -u apikey: https://api.acme.io",
    "docker run -p 8080:80 nginx",
    "ssh -p 2222 deploy@bastion",
    "mkdir -p /var/lib/app && cp -p a b",
    "export DB_PASSWORD=${DB_PASSWORD}",
    "PGPASSWORD=$(cat /run/secrets/pg) psql -h db",
    "password: ********",
    "password = <your password>",
    "<password>changeme</password>",
    '<add key="SmtpPassword" value="" />',
    '<add key="SmtpPasswordLength" value="12345678" />',
    '<add key="ConnectionTimeout" value="30000000" />',
    'sshpass -p "$SSH_PASS" ssh deploy@bastion',
    "keytool -list -keystore cacerts -storepass changeit",
    "pg_dump --password-file /run/secrets/db app",
    "gh api --token $GITHUB_TOKEN /user",
    "bypass = true",
    "zip -r -P $ZIP_PASS out.zip dir",
    "CACHE_KEY=3f2a9c1d4e5b6a7f8091a2b3c4d5e6f7",
    "PARTITION_KEY=tenant#42",
    "idempotency_key: 8c1e4f2a-3b5d-4e6f-8a9b-0c1d2e3f4a5b",
    "S3_OBJECT_KEY=uploads/2024/05/report-final.pdf",
    'primaryKey: "id"',
    "PUBLIC_KEY=MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE",
    "SORT_KEY=2024-05-01#order",
    '"integrity": "sha512-' + b64(rand_bytes(64)) + '"',
    "ed25519 signature: " + b64(rand_bytes(64)),
    "aws s3 sync ./site s3://acme-site --exclude 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b",
    "the secret is in commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b",
    "secret digest: " + b64(rand_bytes(32)),
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC...\n-----END PRIVATE KEY-----",
    "-----BEGIN RSA PRIVATE KEY-----\n{{ vault_rsa_key }}\n-----END RSA PRIVATE KEY-----",
    "Paste the -----BEGIN OPENSSH PRIVATE KEY----- block here and keep it secret",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
]:
    neg(text)
CLASS = None

# --- PII ---------------------------------------------------------------------

pii = []


def ppos(text, *ids):
    pii.append(tagged({"text": text, "expect": sorted(set(ids))}))


def pneg(text):
    pii.append(tagged({"text": text, "expect": []}))


def luhn_complete(prefix, length):
    body = prefix + rs(DIGITS, length - len(prefix) - 1)
    total = 0
    for i, d in enumerate(reversed(body)):
        v = int(d)
        if i % 2 == 0:
            v *= 2
            if v > 9:
                v -= 9
        total += v
    return body + str((10 - total % 10) % 10)


def luhn_bad(prefix, length):
    good = luhn_complete(prefix, length)
    return good[:-1] + str((int(good[-1]) + R.randrange(1, 10)) % 10)


def group_card(n):
    if len(n) == 15:
        return f"{n[:4]} {n[4:10]} {n[10:]}"
    return " ".join(n[i : i + 4] for i in range(0, len(n), 4))


CARD_PREFIXES = [
    ("4", 16), ("4", 16), ("4", 13), ("51", 16), ("55", 16), ("2221", 16), ("2720", 16),
    ("34", 15), ("37", 15), ("6011", 16), ("65", 16), ("3530", 16), ("36", 14), ("62", 16), ("2200", 16),
]

for prefix, length in CARD_PREFIXES:
    n = luhn_complete(prefix, length)
    fmt = R.choice(["plain", "space", "dash"])
    shown = n if fmt == "plain" else group_card(n).replace(" ", "-" if fmt == "dash" else " ")
    ppos(
        R.choice([
            f"card: {shown}",
            f"Please charge {shown} exp 09/27 cvv 123",
            f'{{"customer": "c_{rs(DIGITS, 6)}", "pan": "{shown}"}}',
            f"my card number is {shown}, can you update billing?",
            f"2024-03-12 10:01:22 INFO payment accepted card={shown} amount=42.00",
        ]),
        "credit_card",
    )
for n in ["4111 1111 1111 1111", "4242424242424242", "5555-5555-5555-4444", "3782 822463 10005"]:
    ppos(f"test card {n}", "credit_card")
ppos(f"{group_card(luhn_complete('4', 16))} 12/26", "credit_card")

for prefix, length in CARD_PREFIXES[:10]:
    pneg(R.choice([
        f"card: {group_card(luhn_bad(prefix, length))}",
        f"order number {luhn_bad(prefix, length)}",
        f"Invalid card {luhn_bad(prefix, length)} was rejected",
    ]))
for _ in range(6):
    # Luhn-valid numbers outside any issuer range (order and tracking numbers).
    pneg(R.choice([
        f"Order #{luhn_complete('1', 16)} confirmed",
        f"tracking: {luhn_complete('9', 16)}",
        f"invoice {luhn_complete('0', 14)}",
        f"account ref {luhn_complete('7', 15)}",
    ]))
for text in [
    "phone 1234 5678 9012 3456 7890",
    "timestamp 1700000000123 ms",
    "ISBN 978-3-16-148410-0",
    "build 20240312103045",
    "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16",
    "4111-1111 1111-1111 (mixed separators)",
    f"id: {rs(DIGITS, 22)}",
    "digits 0000 0000 0000 0000",
]:
    pneg(text)

# SSNs.
def ssn():
    while True:
        a = R.randrange(1, 900)
        if a != 666:
            return f"{a:03d}-{R.randrange(1, 100):02d}-{R.randrange(1, 10000):04d}"


for _ in range(14):
    s = ssn()
    ppos(R.choice([
        f"SSN: {s}",
        f"Employee record: Jane Roe, DOB 1984-07-19, SSN {s}",
        f'{{"name": "John Q Public", "ssn": "{s}"}}',
        f"my social is {s}",
        f"ssn={s} state=CA",
    ]), "us_ssn")
ppos("example SSN format 123-45-6789", "us_ssn")
for text in [
    "SSN: 000-12-3456",
    "SSN: 666-45-1234",
    "SSN: 900-12-3456",
    "SSN: 987-65-4321",
    "SSN: 123-00-4567",
    "SSN: 123-45-0000",
    "SSN 078-05-1120 from the Woolworth wallet card",
    "part no. 12-345-67-8901",
    "serial 123-45-6789-01",
    "dates 2024-03-12 and 2023-11-30",
    "call 555-12-34",
    "ref 1234-56-7890",
    "room 101 12 3456",
]:
    pneg(text)


# SSNs without separators or with spaces, labelled; tables with an ssn column.
def ssn_digits():
    return ssn().replace("-", "")


CLASS = "SSNs labelled, without dashes, in tables"
for _ in range(3):
    d = ssn_digits()
    ppos(f'"ssn": "{d[:3]} {d[3:5]} {d[5:]}"', "us_ssn")
    ppos(f"SSN {ssn_digits()}", "us_ssn")
    ppos(f"applicant ssn={ssn_digits()} status=approved", "us_ssn")
    ppos(f'{{"customer_ssn": "{ssn_digits()}"}}', "us_ssn")
    ppos(f"name,ssn,dob\nJane Roe,{ssn_digits()},1980-01-02\nJohn Roe,{ssn_digits()},1979-03-04", "us_ssn")
    ppos(f"id\tname\tSSN\n1\tJane Roe\t{ssn_digits()}", "us_ssn")
    ppos(f"| name | SSN |\n|---|---|\n| Jane Roe | {ssn()} |\n| John Roe | {ssn_digits()} |", "us_ssn")
for text in [
    '"ssn_last4": "2124"',
    "order 593742124 shipped",
    "name,ssn,dob\nJane Roe,XXX-XX-2124,1980-01-02",
    "name,employee_id\nJane Roe,593742124",
    "SSN: 666123456",
    "ssn,zip\n***-**-1234,94105",
]:
    pneg(text)
CLASS = None

# IBANs.
IBAN_LEN = {"DE": 22, "GB": 22, "FR": 27, "ES": 24, "IT": 27, "NL": 18, "BE": 16, "CH": 21, "AT": 20, "PL": 28, "SE": 24, "NO": 15, "IE": 22, "PT": 25, "DK": 18}


def iban_for(country, valid=True):
    n = IBAN_LEN[country]
    if country in ("GB", "NL", "IE"):
        bban = rs(UPPER, 4) + rs(DIGITS, n - 8)
    else:
        bban = rs(DIGITS, n - 4)
    rearranged = bban + country + "00"
    num = int("".join(str(int(c, 36)) for c in rearranged))
    check = 98 - num % 97
    if not valid:
        check = (check + R.randrange(1, 90)) % 97 + 2
        check = check if check != 98 - num % 97 else check + 1
    return f"{country}{check:02d}{bban}"


def group_iban(s):
    return " ".join(s[i : i + 4] for i in range(0, len(s), 4))


for country in IBAN_LEN:
    ib = iban_for(country)
    shown = R.choice([ib, group_iban(ib)])
    ppos(R.choice([
        f"IBAN: {shown}",
        f"Please wire the deposit to {shown} (Acme GmbH)",
        f'{{"beneficiary": "Acme Ltd", "iban": "{shown}", "bic": "DEUTDEFF"}}',
        f"Bankverbindung: {shown}",
    ]), "iban")
ppos("Pay to ES91 2100 0418 4502 0005 1332 EUR 1,200.00", "iban")
ppos("reference IBAN DE89 3704 0044 0532 0130 00", "iban")
ppos("GB82WEST12345698765432 is on the invoice", "iban")
for country in list(IBAN_LEN)[:10]:
    pneg(f"IBAN: {group_iban(iban_for(country, valid=False))}")
for text in [
    "DE89 3704 0044 0532 0130",
    "XX12 3456 7890 1234 5678 90",
    "ISO code DE12 and zip 10115",
    "part number AB12CD34EF56GH78",
    "FR763000600001123456789018 (typo: one digit missing)",
    "US12345678901234567890",
]:
    pneg(text)

# Emails.
FIRST = ["john", "maria", "wei", "fatima", "olga", "kwame", "lucas", "aiko", "priya", "sven"]
LAST = ["smith", "garcia", "zhang", "khan", "ivanova", "mensah", "silva", "tanaka", "patel", "berg"]
# Fictitious organisations (Microsoft's sample companies and the like), not mail providers.
DOMAINS = ["contoso.com", "fabrikam.com", "acme-corp.io", "initech.co.uk", "uni-hogwarts.ac.uk", "globex-mail.net", "wingtiptoys.fr", "mail.adventure-works.com"]
for i in range(16):
    f, l = R.choice(FIRST), R.choice(LAST)
    addr = R.choice([f"{f}.{l}", f"{f}{R.randrange(10, 99)}", f"{f[0]}{l}", f"{f}+newsletter", f"{f}_{l}"]) + "@" + R.choice(DOMAINS)
    ppos(R.choice([
        f"Contact: {addr}",
        f"From: {f.title()} {l.title()} <{addr}>",
        f'{{"email": "{addr}", "plan": "pro"}}',
        f"please send the invoice to {addr} thanks",
        f"2024-03-12 INFO user login email={addr} ip_hidden",
        f"mailto:{addr}",
    ]), "email")
for text in [
    "user@localhost",
    "john@example.com",
    "contact us at support@example.org",
    "test user: jane.doe@test",
    "git@github.com:acme/app.git",
    "icon@2x.png",
    "logo@3x.webp and banner@2x.jpg",
    "npm install lodash@4.17.21",
    "pip install requests==2.31.0; uv add httpx@0.27",
    "@decorator on line 12",
    "ping @channel about the outage",
    "postgres://app:Kq83mZ2@db.acme.io/app",
    "user@@domain.com",
    "email: <your-email-here>",
]:
    pneg(text)

# Phones.
for text in [
    "+1 415 555 2671",
    "+14155552671",
    "+44 20 7946 0958",
    "+49 30 12345678",
    "+33 1 42 68 53 00",
    "+91 98765 43210",
    "+81-3-1234-5678",
    "+61 2 9374 4000",
    "+55 11 91234-5678",
    "+1 (212) 736-5000",
]:
    ppos(R.choice([f"call me at {text}", f"Phone: {text}", f'{{"phone": "{text}"}}', f"whatsapp {text} anytime"]), "phone")
for text in ["(415) 555-2671", "415-555-2671", "212.736.5000", "1-800-275-2273", "(646) 555-3890", "1 (312) 555-7812"]:
    ppos(R.choice([f"Tel: {text}", f"reach the front desk at {text}", f"phone={text}"]), "phone")
for text in [
    "version 1.2.3",
    "released 2024-03-12",
    "meeting 10:30-11:45",
    "order 123-456-7890",
    "(555) 555-0123 is a fictional number",
    "call 911 or 112",
    "+1 234",
    "id 4155552671",
    "ticket 2024-555-1234",
    "coordinates 37.7749, -122.4194",
    "+2812345678",
    "price 1,234,567.89",
    "415-555.2671",
    "score 250 300 1000",
]:
    pneg(text)

# IP addresses.
for text in [
    "192.168.1.20", "10.0.3.17", "172.16.254.1", "8.8.4.40", "203.0.113.42", "127.0.0.1",
    "2001:db8::1", "fe80::1ff:fe23:4567:890a", "2001:0db8:85a3:0000:0000:8a2e:0370:7334", "::1", "::ffff:192.0.2.128", "fe80::1%eth0",
]:
    ppos(R.choice([
        f"client ip {text}",
        f"connection from {text} refused",
        f'{{"remote_addr": "{text}", "status": 403}}',
        f"ssh -p 22 {text}",
        f"[{text}]:8443 listening" if ":" in text else f"{text}:8443 listening",
    ]), "ip_address")
ppos("nginx: 93.184.216.34 - - [12/Mar/2024:10:01:22 +0000] \"GET / HTTP/1.1\" 200", "ip_address")
for text in [
    "version 1.2.3.4",
    "v2.10.0.1 released",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "OID 1.3.6.1.4.1.311.21.8",
    "listen on 0.0.0.0:8080",
    "netmask 255.255.255.0",
    "broadcast 255.255.255.255",
    "999.12.3.4",
    "time 12:30:45",
    "MAC 00:1A:2B:3C:4D:5E",
    "use std::collections::HashMap;",
    "a::b and cafe::beef are paths",
    "ratio 1.5.2",
    "192.168.1",
    "firmware 3.2.1.0 installed",
]:
    pneg(text)

# Mixed: several entities in one text.
ppos(f"Name: Jane Roe, email jane.roe@tailspintoys.com, phone +44 20 7946 0958, SSN {ssn()}", "email", "phone", "us_ssn")
ppos(f"wire to {group_iban(iban_for('DE'))}, receipt to billing@acme.io", "iban", "email")
ppos(f"login from 81.2.69.142 by kwame.mensah@fabrikam.com", "ip_address", "email")
ppos(f"card {group_card(luhn_complete('4', 16))}, phone (646) 555-3890", "credit_card", "phone")

# Plain negatives from everyday text.
for text in [
    "The quarterly report is due on 2024-06-30.",
    "Build #4821 passed in 3m 12s.",
    "Use a 4-digit PIN.",
    "Reduce the batch size from 512 to 256.",
    "Call the function with retries=3 and timeout=30.",
    "Room 12B, floor 3",
    "Total: $1,249.99 (tax 8.25%)",
    "SHA 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "uuid 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e",
    "port 5432 is open",
]:
    pneg(text)


# --- More secrets near-misses --------------------------------------------------

# Provider prefixes with the wrong length or alphabet.
for text in [
    f"AKIA{rs(UPPER, 12)} looks truncated",
    f"ghp_{rs(ALNUM, 20)}",
    "xoxb-123",
    f"sk_live_{rs(ALNUM, 12)}",
    f"AIza{rs(ALNUM, 20)}",
    "glpat-short",
    f"npm_{rs(ALNUM, 20)}",
    f"SK{rs(HEX, 31)}",
    f"key-{rs(HEX, 16)}",
    f"dop_v1_{rs(HEX, 40)}",
    f"hf_{rs(ALNUM, 10)}",
    "AIzaSyXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "sk-proj-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    f"SG.{rs(B64URL, 10)}.{rs(B64URL, 10)}",
    f"PMAK-{rs(HEX, 10)}",
    "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ",
    f"AGE-SECRET-KEY-1{rs(BECH32.upper(), 58)}",
    f"MTAx{rs(B64URL, 20)}.{rs(B64URL, 6)}.{rs(B64URL, 27)}",
    f"1234567:AA{rs(B64URL, 10)}",
    f"{rs(HEX, 32)}-eu1",
    f"lin_api_{rs(ALNUM, 12)}",
    f"xoxb-{rs(DIGITS, 12)}-{rs(DIGITS, 13)}-abcdefabcdefabcdefabcdef",
    "Bearer abcdefghijklmnopqrstuvwxyz",
    "Authorization: Bearer 0000000000000000000000000000",
]:
    neg(text)

# Config and infrastructure lines without secrets.
for text in [
    "database_host: db.internal",
    "port: 5432",
    "timeout_seconds: 30",
    "replicas: 3\nimage: nginx:1.25.3\nimagePullPolicy: IfNotPresent",
    'resource "aws_db_instance" "main" {\n  password = var.db_password\n}',
    "      - name: DB_PASSWORD\n        valueFrom:\n          secretKeyRef:\n            name: db\n            key: password",
    "env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    "environment:\n  POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}",
    "existingSecret: my-release-postgresql",
    "auth:\n  existingSecret: redis-auth\n  existingSecretPasswordKey: redis-password",
    "SENTRY_DSN=https://" + rs(HEX, 32) + "@o450000.ingest.sentry.io/5500000",
    'api_key: ""',
    "secret: ~",
    "token: false",
    "password:",
    "client_id: 8a7f2c1e-9b3d-4e6f-a1b2-c3d4e5f60718",
    "oauth_client_id=123456789012-abc123def456.apps.googleusercontent.com",
    f'etag: "{rs(HEX, 32)}"',
    f"password_hash: $argon2id$v=19$m=65536,t=3,p=4${b64(rand_bytes(16)).rstrip('=')}${b64(rand_bytes(32)).rstrip('=')}",
    f"hashed_password = '$2y$10${rs(ALNUM + './', 53)}'",
    f"md5: {rs(HEX, 32)}",
    f"sha1 {rs(HEX, 40)}",
    f"nonce={rs(HEX, 16)}",
    f"x-request-id: {rs(HEX, 32)}",
    f"correlationId: {uuid()}",
    f"build cache key: {rs(HEX, 64)}",
    "kubectl create secret generic db-creds --from-literal=username=app",
    "aws configure set region eu-west-1",
    "gh auth login --with-token < token.txt",
    "npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}",
    "echo $GITHUB_TOKEN | docker login ghcr.io -u USERNAME --password-stdin",
    "vault kv get -field=password secret/db",
    "openssl genrsa -out private.pem 2048",
    "ssh-keygen -t ed25519 -C 'alice@laptop'",
    "chmod 600 ~/.ssh/id_rsa",
    "Rotate the API keys every 90 days and store them in the vault.",
    "The access token expired; requesting a new one with the refresh token.",
    "Set OPENAI_API_KEY in your shell before running the script.",
    "We use JWTs (eyJ...) signed with RS256 for service-to-service auth.",
    "Stripe keys start with sk_live_ or sk_test_; never commit them.",
    "GitHub tokens now start with ghp_, gho_, ghu_, ghs_ or ghr_.",
    "Slack bot tokens look like xoxb-…; user tokens like xoxp-….",
    "-----BEGIN OPENSSH PRIVATE KEY----- blocks must never be pasted in chat",
    "Paste your key between -----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY-----",
    "token = Token(kind=TokenKind.IDENT, span=span)",
    "let token = lexer.next_token()?;",
    "for token in tokens: print(token)",
    "secret_santa_assignments: 12",
    "if secret == expected_secret { return Ok(()) }",
    'password_field = driver.find_element(By.ID, "password")',
    '<input type="password" name="password" placeholder="Password">',
    "label: Password (min. 8 characters)",
    'i18n: {"password": "Mot de passe", "token": "Jeton"}',
    "passwords.txt: No such file or directory",
    "FAILED tests/test_auth.py::test_invalid_password - AssertionError",
    "api/v1/tokens/refresh returned 401",
    "GET /oauth/token?grant_type=client_credentials 200",
    "token_count=5123 cost_usd=0.0412",
    "secretsmanager:GetSecretValue denied for role/app",
    "Basic Authentication Scheme (RFC 7617)",
    "basic setup guide for beginners",
]:
    neg(text)

# Random identifiers of every common shape.
for _ in range(10):
    neg(R.choice([
        f"job {uuid()} finished in {R.randrange(1, 900)}s",
        f"commit {rs(HEX, 40)} (HEAD -> main, origin/main)",
        f"blob {rs(HEX, 64)} 4096 bytes",
        f"object_key: uploads/{rs(HEX, 32)}/avatar.png",
        f"ULID {rs('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 26)}",
        f"file id {rs(ALNUM + '-_', 33)}",
        f"payload={b64(rand_bytes(R.randrange(20, 60)))}",
        f"video id {rs(ALNUM + '-_', 11)}",
    ]))


# --- More PII ------------------------------------------------------------------

for _ in range(14):
    f, l = R.choice(FIRST), R.choice(LAST)
    addr = f"{f}.{l}@" + R.choice(DOMAINS + ["northwindtraders.com", "litware.de", "proseware.jp"])
    ppos(R.choice([
        f"cc: {addr}",
        f"Reply-To: {addr}",
        f"user {addr} requested a password reset",
        f"- name: {f.title()} {l.title()}\n  email: {addr}",
        f"<a href=\"mailto:{addr}\">{f.title()}</a>",
        f"Signed up: {addr.upper()}",
    ]), "email")
for prefix, length in CARD_PREFIXES:
    n = luhn_complete(prefix, length)
    ppos(R.choice([f"PAN {n}", f"card_number: \"{group_card(n)}\"", f"ending in {n[-4:]}, full number {group_card(n).replace(' ', '-')}", f"charged {n} successfully"]), "credit_card")
for _ in range(10):
    s_ = ssn()
    ppos(R.choice([f"Social Security Number: {s_}", f"SSN#{s_}", f"tax id (ssn) {s_}", f"| Jane Roe | {s_} | CA |"]), "us_ssn")
for country in IBAN_LEN:
    ib = iban_for(country)
    ppos(R.choice([f"Account: {group_iban(ib)}", f"iban={ib}", f"Überweisung an {group_iban(ib)} bis Freitag", f"beneficiary account {ib} / BIC ABCDEFGH"]), "iban")
for text in ["+1-202-555-7341", "+49 (0)30 901820", "+34 612 345 678", "+86 138 0013 8000", "+7 495 123-45-67", "+27 21 123 4567", "(202) 456-1111", "646.555.3890", "+353 1 234 5678", "+65 6123 4567"]:
    ppos(R.choice([f"mobile: {text}", f"Call {text} to confirm", f"tel={text}"]), "phone")
for text in ["34.117.59.81", "100.64.0.1", "2a00:1450:4001:82b::200e", "2606:4700:4700::1111", "198.51.100.7", "9.19.161.8"]:
    ppos(R.choice([f"resolved to {text}", f"X-Forwarded-For: {text}", f"blocked ip={text}"]), "ip_address")

for text in [
    "Invoice 2024-000123, due 2024-04-30",
    "Order ID 4482917736",
    "Tracking number 9400 1000 0000 0000 0000 00",
    "UPS 1Z 999 AA1 01 2345 6784",
    "ZIP 94105-1804",
    "postcode SW1A 1AA",
    "Version 10.0.19045.3930",
    "build 1.2.3-rc.4+sha.5114f85",
    "lat 48.8584, lon 2.2945",
    "time 2024-03-12T10:01:22.123456+00:00",
    "duration 01:02:03.004",
    "price: 1 299,00 EUR",
    "qty 100 200 300 400 500",
    "EAN 4006381333931",
    "ISBN-13: 978-0-306-40615-7",
    "UUID 123e4567-e89b-12d3-a456-426614174000",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "MAC address 3C:22:FB:12:34:56",
    "ipv6 prefix length /64",
    "error code 0x80070005",
    "room 2-305, building 7",
    "case no. 2023-CV-004512",
    "patent US 10,123,456 B2",
    "ssn field left blank",
    "email me later",
    "phone: n/a",
    "@admin please review",
    "foo@bar",
    "name@domain.invalid",
    "admin@company.local",
    "v1.0.0...v1.2.0 compare",
    "python 3.12.1",
    "node v20.11.0",
    "kernel 6.5.0-25-generic",
    "Android 14; Pixel 8 Build/UQ1A.240205.004",
    "CIDR block size /16",
    "HTTP/1.1 200 OK",
    "1.0.0.0.0.0.1",
    "pages 123-145",
    "score 98-87-76",
    "chapter 3.2.1.4",
    "ticket ABC-1234",
    "batch 000-00-0000",
    "IBAN: see attachment",
    "card ending 4242",
    "cvv 123, exp 12/27",
    "000-000-0000",
    "(000) 000-0000",
    "+0 123 456 7890",
    "call 1-800-FLOWERS",
    "tel: 12345",
    "ext. 4521",
    "GB00 0000 0000 0000 0000 00",
    "DE00 1234 5678 9012 3456 78",
    "NO12 3456 7890 123",
    f"card {luhn_bad('5', 16)}",
    f"card {group_card(luhn_bad('37', 15))}",
    f"card {luhn_bad('6011', 16)}",
]:
    pneg(text)


# --- Harder cases ----------------------------------------------------------------

pos(f"GET https://api.acme.io/v1/data?api_key={rs(ALNUM, 32)}&format=json 200", "secret_assignment")
pos(f'openai.api_key = "{GEN["openai_api_key"]()}"', "openai_api_key", "secret_assignment")
pos(f"//registry.npmjs.org/:_authToken={GEN['npm_token']()}", "npm_token", "secret_assignment")
pos(f"[pypi]\nusername = __token__\npassword = {GEN['pypi_token']()}", "pypi_token", "password_assignment")
pos(f"apiVersion: v1\nkind: Secret\ndata:\n  password: {b64(rs(ALNUM + '!#%', 14).encode())}", "password_assignment")
pos(f'2024-03-12 ERROR webhook body="{{\\"api_token\\": \\"{rs(ALNUM, 40)}\\", \\"event\\": \\"push\\"}}"', "secret_assignment")
pos(f'const firebaseConfig = {{ apiKey: "{GEN["gcp_api_key"]()}", authDomain: "acme-app.firebaseapp.com" }};', "gcp_api_key", "secret_assignment")
pos(f"SECRET_KEY = 'django-insecure-{rs(LOWER + DIGITS + '!@#$%^&*x-_=+y', 50)}'", "secret_assignment")
pos(f"GITHUB_TOKEN={rs(HEX, 40)}", "secret_assignment")
pos(f"-H 'X-Api-Key: {uuid()}'", "secret_assignment")
# Known limitation: a password of letters only reads as a word.
pos("password: correcthorsebatterystaple", "password_assignment")

for text in [
    "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  62313365396662343061393464336163383764373764613633653634306231386433626436623361",
    "wifi_password: !secret wifi_password",
    "DB_PASSWORD: !Ref DbPasswordParam",
    "password: ENC[AES256_GCM,data:Tr5jK2E=,iv:9dP2mQ==,tag:Xa1b2w==,type:str]",
    "password: '{cipher}AQBa8f3kLm2Qz9xW1vB7nR4tY6uI0oP5aS3d'",
    "password = <%= ENV['DB_PASSWORD'] %>",
    "api_key=test_api_key_123",
    "token: release-2024-q1",
    "token_created_at: 2024-03-12T10:00:00Z",
    "secret_arn: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
    "private_key_fingerprint: SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
    "password: MyPassword!23",
    "secret: staging_key_v2",
    "access_token: <access-token>",
    'token: "Bearer"',
    "SECRET_KEY=django-insecure-changeme",
]:
    neg(text)


# --- Harder PII cases --------------------------------------------------------------

ppos("root@127.0.0.1", "ip_address")
ppos("SSN: 123456789", "us_ssn")
ppos("Social Security No. 212 67 4590", "us_ssn")
ppos("tel:+14155552671", "phone")
ppos("+1 415-555-2671 ext. 23", "phone")
ppos("subnet 10.20.0.0/16, gateway 10.20.0.1", "ip_address")
ppos("IPs: 10.0.0.1,10.0.0.2", "ip_address")
ppos("Amex 3714-496353-98431", "credit_card")
# Known limitations: national numbers outside North America need the + form.
ppos("Phone: 020 7946 0958", "phone")
ppos("tél : 01 42 68 53 00", "phone")
# Known limitation: a four-part version is indistinguishable from an address.
pneg("upgraded to 4.2.1.0 yesterday")
for text in [
    "SSN: pending",
    "ssn: 000000000",
    "SSN: 98765432",
    "social security number 900 12 3456",
    "Fax: see website",
    "ID 2019-0045-77",
    "ref 12.34.56",
    "1234-5678",
    "page 12 of 30",
    "copyright 1999-2024",
    "RFC 5321 section 4.1.2",
    "+++ b/src/main.rs",
    "@@ -12,7 +12,9 @@",
    "temperature +21.5 C",
    "delta +12345",
    "a.b@c",
    "reply@",
    "noreply@host",
    "x@y.z",
    "v4.2.0.1-beta",
    "::",
    "1::2::3",
    "fe80::zz",
    "c::FF0 and u::MAX",
    "DNS 1.1.1.1 or 8.8.8.8",
    "+9999-12-31 23:59:59",
    "x = 0.4111111111111111",
    "const SEED: u64 = 4488286894823169796;",
    "pw_passwd: *const c_char",
]:
    pneg(text)



# --- Structured tool outputs: names and values in different JSON strings ------

structured = []


def spos(family, value, *ids):
    structured.append({"family": family, "class": "structured JSON", "json": value, "expect": sorted(set(ids))})


def sneg(family, value):
    structured.append({"family": family, "class": "structured JSON", "json": value, "expect": []})


for _ in range(3):
    sec = aws_secret()
    spos("secrets", {"Credentials": {"AccessKeyId": aws_id("ASIA"), "SecretAccessKey": sec, "Expiration": "2024-05-01T12:00:00Z"}},
         "aws_access_key_id", "aws_secret_access_key", "secret_assignment")
    spos("secrets", {"db": {"host": "db.internal", "port": 5432, "password": password()}}, "password_assignment")
    spos("secrets", {"users": [{"name": "ci", "password": password()}, {"name": "ops", "password": password()}]}, "password_assignment")
    spos("secrets", {"passwords": [password()]}, "password_assignment")
    spos("secrets", {"spec": {"containers": [{"name": "api", "env": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "DB_PASSWORD", "value": password()}]}]}}, "password_assignment")
    spos("secrets", {"Parameter": {"Name": "/prod/db/password", "Type": "SecureString", "Value": password(), "Version": 3}}, "password_assignment")
    spos("secrets", {"Tags": [{"Key": "team", "Value": "core"}, {"Key": "api_token", "Value": rs(ALNUM, 32)}]}, "secret_assignment")
    spos("secrets", {"a": {"b": {"c": {"d": {"e": {"client_secret": rs(ALNUM + "-_", 36)}}}}}}, "secret_assignment")
    spos("secrets", {"properties": {"accountKey": azure_key()}}, "azure_storage_key", "secret_assignment")
    spos("secrets", {"config": {"smtp": {"pass": password()}}}, "password_assignment")
    d = ssn_digits()
    spos("pii", {"employee": {"name": "Jane Roe", "ssn": f"{d[:3]} {d[3:5]} {d[5:]}"}}, "us_ssn")
    spos("pii", {"records": [{"id": 1, "SSN": int(ssn_digits())}]}, "us_ssn")
    spos("pii", {"applicant": {"social_security_number": ssn_digits()}}, "us_ssn")
for value in [
    {"password": "********"},
    {"password_min_length": 12, "password_require_symbols": True},
    {"token_type": "Bearer", "expires_in": 3600},
    {"name": "password", "value": "changeme"},
    {"env": [{"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}}]},
    {"cache_key": "3f2a9c1d4e5b6a7f8091a2b3c4d5e6f7"},
    {"Key": "uploads/2024/05/report.pdf"},
    {"passwordPolicy": {"minLength": 12, "requireSymbols": True}},
    {"secretName": "prod-db-credentials", "secretArn": "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod-db-AbCdEf"},
    {"client_secret": "${CLIENT_SECRET}"},
    {"password": "{{ vault_db_password }}"},
    {"api_key": "YOUR_API_KEY_HERE"},
    {"partition_key": "tenant#42", "sort_key": "2024-05-01#order"},
]:
    sneg("secrets", value)
for value in [
    {"ssn_last4": "2124"},
    {"order_id": 593742124},
    {"ssn": "XXX-XX-2124"},
    {"business_name": "Acme 593742124"},
]:
    sneg("pii", value)

# Provider prefixes written with one JSON escape (`gh\u0070_`), so that secret
# scanners and push protection reading the raw file do not take the fake
# tokens for real ones; the parsed text is unchanged.
SCANNER_PREFIXES = [
    "AKIA", "ASIA", "AIza", "GOCSPX-", "ya29.", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
    "github_pat_", "glpat-", "glrt-", "GR1348941", "npm_", "pypi-", "xoxb-", "xoxp-", "xapp-",
    "hooks.slack.com", "sk_live_", "rk_live_", "sk_test_", "pk_live_", "whsec_", "shpat_", "shpca_",
    "shppa_", "shpss_", "sk-ant-", "sk-proj-", "sk-svcacct-", "T3BlbkFJ", "hf_", "gsk_", "hvs.",
    "dop_v1_", "doo_v1_", "dor_v1_", "SG.", "dapi", "PMAK-", "glsa_", "glc_", "NRAK-", "lin_api_",
    "pul-", "dp.pt.", "dp.st.", "dp.sa.", "sntry", "AGE-SECRET-KEY-", "AccountKey=", "account-key=",
    "PRIVATE KEY", "aws_secret_access_key", "AWS_SECRET_ACCESS_KEY", "SecretAccessKey", "key-",
    "ops_eyJ", "LTAI", "ATATT3", "CLOJARS_", "dt0c01.", "EZAK", "fo1_", "fm2_", "gldt-", "glft-",
    "glsoat-", "glcbt-", "glptt-", "glimt-", "HRKU-", "ntn_", "sha256~", "pplx-", "pscale_",
    "pnu_", "rubygems_", "xkeysib-", "shippo_", "EAAA", "sq0atp-", "sq0csp-", "dckr_pat_", "xai-",
    "sk-or-v1-", "lsv2_", "tvly-", "r8_", "AKCp", "cmVmd", "webhook.office.com", "discord.com/api/webhooks",
    "sk.eyJ",
]


def hide_prefixes(json_text):
    # The fourth character of every long token-like run (prefix-less formats:
    # Discord, Telegram, Twilio, JWTs, base64 secrets), then the prefixes.
    json_text = re.sub(
        r"(?<![A-Za-z0-9_+/\\-])([A-Za-z0-9_+/-]{3})([A-Za-z0-9_+/-])(?=[A-Za-z0-9_+/-]{16})",
        lambda m: m.group(1) + "\\u%04x" % ord(m.group(2)),
        json_text,
    )
    for p in SCANNER_PREFIXES:
        json_text = json_text.replace(p, p[0] + "\\u%04x" % ord(p[1]) + p[2:])
    return json_text


def write(name, rows, hide=False):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        for row in rows:
            text = json.dumps(row["text"], ensure_ascii=False)
            text = hide_prefixes(text) if hide else text
            tag = f', "class": {json.dumps(row["class"])}' if "class" in row else ""
            f.write(f'{{"text": {text}, "expect": {json.dumps(row["expect"])}{tag}}}\n')


# --- Credentials re-encoded as tools print them ---------------------------------
# Generated after everything above, so that the cases above stay as they were.

CLASS = "credentials re-encoded (base64, wrapped)"


def wrap(text, width, newline="\n", indent=""):
    return newline.join(indent + text[i:i + width] for i in range(0, len(text), width))


def b64text(text):
    return b64(text.encode())


for _ in range(2):
    secret = aws_secret()
    creds = f"[default]\naws_access_key_id = {aws_id()}\naws_secret_access_key = {secret}\n"
    found = ["aws_access_key_id", "aws_secret_access_key", *generic_labels("aws_secret_access_key", secret)]
    pos(b64text(creds), *found)
    pos(f"apiVersion: v1\ndata:\n  aws: {b64text(creds)}\nkind: Secret", *found)
    pos(wrap(b64text(creds), 76), *found)
    pos(base64.urlsafe_b64encode(creds.encode()).decode().rstrip("="), *found)
    env = f"APP_ENV=production\nDB_HOST=db.internal\nDB_PASSWORD={password()}\n"
    pos(f"data:\n  .env: {b64text(env)}", "password_assignment")
    key = b64text(private_key_block("", 14) + "\n")
    pos(f"data:\n  tls.key: {key}", "private_key")
    pos(wrap(key, 64), "private_key")
    pos(wrap(key, 60, "\r\n"), "private_key")
    pos("tls.key: |\n" + wrap(key, 76, "\n", "    ") + "\ntype: kubernetes.io/tls", "private_key")
    pos(json.dumps({"data": {"key.pem": wrap(key, 64)}}), "private_key")
    token = github("ghp")
    pos(json.dumps({"auths": {"ghcr.io": {"auth": b64text("octocat:" + token)}}}), "basic_auth_header", "github_pat")
    pos(json.dumps({"auths": {"registry.example.com": {"auth": b64text("deploy:" + password())}}}), "basic_auth_header")
    config = json.dumps({"auths": {"ghcr.io": {"auth": b64text("octocat:" + github("ghp"))}}})
    pos(f"data:\n  .dockerconfigjson: {b64text(config)}", "basic_auth_header", "github_pat")
    pos(b64text(f"https://deploy:{rs(ALNUM, 16)}@github.com\nhttps://ci:{rs(ALNUM, 16)}@gitlab.example.com\n"), "url_password")

# Near misses: base64 of text without credentials, of binary data, of
# public material, of references and docs values.
neg(b64text("# Billing\n\nThis service reads invoices from the queue and writes a summary per customer every night.\n"))
neg(wrap(b64(rand_bytes(1500)), 76))
neg(b64(rand_bytes(900)))
cert = "-----BEGIN CERTIFICATE-----\n" + wrap(b64(rand_bytes(700)), 64) + "\n-----END CERTIFICATE-----\n"
neg(f"data:\n  ca.crt: {b64text(cert)}")
neg(b64text("APP_ENV=production\nLOG_LEVEL=info\nDB_HOST=db.internal\nDB_PORT=5432\n"))
neg(b64text("DB_HOST=db.internal\nDB_PASSWORD=${DB_PASSWORD}\nAPI_TOKEN=${API_TOKEN}\n"))
neg(json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": b64text("username:password")}}}))
neg(b64text(json.dumps({"name": "billing", "replicas": 3, "image": "registry.example.com/billing:1.4.2"})))
neg("sha512:" + rs(HEX, 128))

CLASS = "passwords with symbols, generated"

KEYBOARD = "!#$%&()*+,-./:;<=>?@[]^_{|}~"


def keyboard_password():
    symbols = [c for c in KEYBOARD if R.random() < 0.6]
    n = R.randrange(10, 30)
    while True:
        v = "".join(R.choice(symbols) if symbols and R.random() < 0.3 else R.choice(ALNUM) for _ in range(n))
        if any(c in KEYBOARD for c in v) and not set(v) & set("'\"\\"):
            return v


made = 0
while made < 40:
    v, name = keyboard_password(), R.choice(["DB_PASSWORD", "password", "PGPASSWORD", "redis_password", "SMTP_PASS", "adminPassword"])
    form = made % 7
    if form == 0:
        text = f"export {name}='{v}'"
    elif form == 1 and not set(v) & set("$`"):
        text = f'{name}="{v}"'
    elif form == 2:
        text = f"{name.lower()}: '{v}'"
    elif form == 3:
        text = "  " + json.dumps({name: v})
    elif form == 4:
        text = f"{name.lower()} = '{v}'"
    elif form == 5:
        text = f'[database]\n{name.lower()} = "{v}"'
    elif form == 6 and ";" not in v:
        text = f"Server=db;Database=app;User Id=app;Password={v};"
    else:
        continue
    pos(text, "password_assignment")
    made += 1

# Near misses: schemes, hashes, references, code and placeholders under
# password names; docs examples of provider tokens.
for text in [
    "#password_encryption = scram-sha-256",
    "password_hash_algo: argon2id",
    "PASSWORD_HASHER=argon2id",
    "password_scheme = bcrypt",
    "password_hashing: pbkdf2_sha256",
    "PASSWORD_ALGORITHM=sha512_crypt",
    "password_storage_scheme: SSHA512",
    "default_authentication_plugin = mysql_native_password",
    "hashed_password = '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG'",
    "export DB_PASSWORD='$(vault kv get -field=password secret/db)'",
    "password = os.getenv('DB_PASSWORD')",
    "password: <your-db-password>",
    "ANTHROPIC_API_KEY=sk-ant-api03-abc123",
    "OPENAI_API_KEY=sk-proj-abc123def456",
    "GROQ_API_KEY=gsk_123abc456",
    "GITLAB_TOKEN=glpat-abc123def456",
    "Authorization: Bearer sk-ant-api03-abc123",
    "aws_secret_access_key=abc123def456ghi789jkl012mno345pqr678stu9",
]:
    neg(text)

CLASS = None

write("secrets.jsonl", secrets, hide=True)
with open(os.path.join(HERE, "structured.jsonl"), "w", encoding="utf-8") as f:
    for row in structured:
        f.write(hide_prefixes(json.dumps(row, ensure_ascii=False)) + "\n")
print(f"structured.jsonl: {len(structured)} lines")
write("pii.jsonl", pii)
npos = sum(1 for r in secrets if r["expect"])
print(f"secrets.jsonl: {len(secrets)} lines, {npos} positive, {len(secrets) - npos} negative")
npos = sum(1 for r in pii if r["expect"])
print(f"pii.jsonl: {len(pii)} lines, {npos} positive, {len(pii) - npos} negative")

# The corpus of instructions addressed to the model (`instructions.jsonl`).
import runpy  # noqa: E402

runpy.run_path(os.path.join(HERE, "gen_instructions.py"), run_name="__main__")
