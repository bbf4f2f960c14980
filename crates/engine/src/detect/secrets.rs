//! Credential detectors (`secrets`) and their validators.
//!
//! Provider tokens are found by their documented prefix and shape; the
//! validators turn away documented example keys (`…EXAMPLE`), placeholders
//! (`sk_live_xxxx…`) and low-entropy fillers, and verify checksums where
//! the format has one (GitHub classic tokens, age keys). Secrets without a
//! recognisable shape are found by the name they are assigned to
//! (`password_assignment`, `secret_assignment`), in URLs
//! (`url_password`) and in `Authorization` headers.

use super::generic::{
    aws_secret_pair, aws_secret_value, azure_storage_pair, azure_storage_value, basic_auth_header,
    basic_auth_pair, bearer_token, credential_argument, password_assignment, password_pair,
    secret_assignment, secret_pair, url_password, xml_credential,
};
use super::validate::{
    all_digits, base62_6, base64_decode, crc32, entropy, is_placeholder, random_token,
};
use super::{Detector, detector};

/// A command-line argument holding a secret: quoted or a bare word (not
/// starting with `-`), 4–256 characters (also written against its short
/// flag: `-pSecret`, `-p'Secret'`).
macro_rules! arg {
    () => {
        r#"(?:"[^"\r\n]{4,}"|'[^'\r\n]{4,}'|[^\s"'|;&<>\-][^\s"'|;&<>]{3,})"#
    };
}

/// Every built-in credential detector.
pub(crate) const SECRETS: &[Detector] = &[
    // --- Cloud providers -------------------------------------------------
    detector!(
        "aws_access_key_id",
        Secret,
        r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
        Some(random_after::<4>),
        "AWS access key id (AKIA… long-term, ASIA… temporary)",
    ),
    detector!(
        "aws_secret_access_key",
        Secret,
        // A name or a mention (`aws`, `secret`) and, within 80 characters
        // on the same line, a run of 40 base64 characters: assigned
        // (`aws_secret_access_key = …`) or written in prose or a log.
        // The run is matched whole (with `-`, `_`, padding) so that the
        // validator can turn away longer tokens.
        r#"(?i:\baws[ \t_.,;:=/"'-]|secret)[^\r\n]{0,80}?[^A-Za-z0-9/+_\-][A-Za-z0-9/+_\-]{40,}=*"#,
        Some(aws_secret_access_key),
        "AWS secret access key (40 base64 characters) assigned to an aws_secret_access_key-like name or written near `aws` / `secret`",
    )
    .paired(aws_secret_pair),
    detector!(
        "gcp_api_key",
        Secret,
        r"\bAIza[0-9A-Za-z_-]{35,}",
        Some(random_len::<4, 39>),
        "Google Cloud / Firebase / Gemini API key (AIza + 35)",
    ),
    detector!(
        "gcp_oauth_client_secret",
        Secret,
        r"\bGOCSPX-[0-9A-Za-z_-]{28,}",
        Some(random_len::<7, 35>),
        "Google OAuth client secret (GOCSPX- + 28)",
    ),
    detector!(
        "gcp_oauth_access_token",
        Secret,
        r"\bya29\.[0-9A-Za-z_-]{30,}",
        Some(random_after::<5>),
        "Google OAuth 2.0 access token (ya29.)",
    ),
    detector!(
        "azure_storage_key",
        Secret,
        // `AccountKey=` in a connection string, `AZURE_STORAGE_KEY=`, or a
        // mention of Azure or storage and, within 80 characters on the
        // same line, a 64-byte key in base64 (86 characters and `==`).
        r"(?i:azure|storage|account[_-]?key)[^\r\n]{0,80}?[^A-Za-z0-9+/][A-Za-z0-9+/]{86}==",
        Some(azure_storage_key),
        "Azure Storage account key (88 base64 characters ending `==`) after AccountKey=, an Azure or storage name or mention",
    )
    .paired(azure_storage_pair),
    detector!(
        "azure_client_secret",
        Secret,
        r"\b[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{34,}",
        Some(random_len::<6, 40>),
        "Microsoft Entra ID (Azure AD) application client secret (…Q~…, 40 characters)",
    ),
    detector!(
        "digitalocean_token",
        Secret,
        r"\bdo[por]_v1_[a-f0-9]{64}\b",
        Some(random_after::<7>),
        "DigitalOcean personal access, OAuth or refresh token (dop_v1_, doo_v1_, dor_v1_)",
    ),
    // --- Source hosting and package registries ----------------------------
    detector!(
        "github_pat",
        Secret,
        r"\bghp_[A-Za-z0-9]{36}\b",
        Some(github_classic_token),
        "GitHub personal access token, classic (ghp_, CRC-32 checked)",
    ),
    detector!(
        "github_oauth_token",
        Secret,
        r"\bgho_[A-Za-z0-9]{36}\b",
        Some(github_classic_token),
        "GitHub OAuth access token (gho_, CRC-32 checked)",
    ),
    detector!(
        "github_app_token",
        Secret,
        r"\bgh[us]_[A-Za-z0-9]{36}\b",
        Some(github_classic_token),
        "GitHub App user-to-server (ghu_) or installation (ghs_) token, CRC-32 checked",
    ),
    detector!(
        "github_refresh_token",
        Secret,
        r"\bghr_[A-Za-z0-9]{36}\b",
        Some(github_classic_token),
        "GitHub refresh token (ghr_, CRC-32 checked)",
    ),
    detector!(
        "github_fine_grained_pat",
        Secret,
        r"\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b",
        Some(random_after::<11>),
        "GitHub fine-grained personal access token (github_pat_)",
    ),
    detector!(
        "gitlab_pat",
        Secret,
        r"\bglpat-[0-9A-Za-z_-]{20,}(?:\.[0-9A-Za-z_-]+)*",
        Some(random_after::<6>),
        "GitLab personal, project or group access token (glpat-)",
    ),
    detector!(
        "gitlab_runner_token",
        Secret,
        r"\b(?:glrt-|GR1348941)[0-9A-Za-z_-]{20,}",
        Some(gitlab_runner_token),
        "GitLab runner authentication (glrt-) or registration (GR1348941) token",
    ),
    detector!(
        "npm_token",
        Secret,
        r"\bnpm_[A-Za-z0-9]{36}\b",
        Some(random_after::<4>),
        "npm access token (npm_)",
    ),
    detector!(
        "pypi_token",
        Secret,
        r"\bpypi-AgE[A-Za-z0-9_-]{50,}",
        Some(random_after::<5>),
        "PyPI / TestPyPI API token (pypi-AgE… macaroon)",
    ),
    // --- Messaging --------------------------------------------------------
    detector!(
        "slack_token",
        Secret,
        r"\b(?:xox[abeoprs]|xapp)-(?:[0-9A-Za-z]+-){1,5}[0-9A-Za-z]{6,}",
        Some(slack_token),
        "Slack bot, user, app, configuration or refresh token (xoxb-, xoxp-, xapp-, …)",
    ),
    detector!(
        "slack_webhook_url",
        Secret,
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,}",
        Some(slack_webhook_url),
        "Slack incoming webhook or workflow trigger URL",
    ),
    detector!(
        "discord_bot_token",
        Secret,
        // The user id is a snowflake (17–20 digits, the first not 0) in
        // base64, so the token starts with the encoding of a digit pair and
        // a digit: `MT`, `Mj`, `Mz`, `ND`, `NT`, `Nj`, `Nz`, `OD` or `OT`,
        // then `[AEIMQUYcgk]` and `[w-z0-5]`.
        r"\b(?:M[Tjz]|N[DTjz]|O[DT])[AEIMQUYcgk][w-z0-5][A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}",
        Some(discord_bot_token),
        "Discord bot token (base64 user id . timestamp . HMAC)",
    ),
    detector!(
        "telegram_bot_token",
        Secret,
        r"\b[0-9]{8,10}:AA[0-9A-Za-z_-]{33,}",
        Some(telegram_bot_token),
        "Telegram Bot API token (bot id:AA…)",
    ),
    detector!(
        "twilio_api_key",
        Secret,
        r"\bSK[0-9a-f]{32}\b",
        Some(random_after::<2>),
        "Twilio API key SID (SK + 32 hex)",
    ),
    detector!(
        "sendgrid_api_key",
        Secret,
        r"\bSG\.[0-9A-Za-z_-]{22}\.[0-9A-Za-z_-]{43,}",
        Some(sendgrid_api_key),
        "SendGrid API key (SG.22.43)",
    ),
    detector!(
        "mailgun_api_key",
        Secret,
        r"\bkey-[0-9a-f]{32}\b",
        Some(random_after::<4>),
        "Mailgun API key, legacy format (key- + 32 hex)",
    ),
    detector!(
        "mailchimp_api_key",
        Secret,
        r"\b[0-9a-f]{32}-us[0-9]{1,2}\b",
        Some(mailchimp_api_key),
        "Mailchimp API key (32 hex + -usNN data centre)",
    ),
    // --- Payments and commerce ---------------------------------------------
    detector!(
        "stripe_secret_key",
        Secret,
        r"\bsk_live_[0-9A-Za-z]{20,247}\b",
        Some(random_after::<8>),
        "Stripe live secret key (sk_live_; test-mode sk_test_ keys are not reported)",
    ),
    detector!(
        "stripe_restricted_key",
        Secret,
        r"\brk_live_[0-9A-Za-z]{20,247}\b",
        Some(random_after::<8>),
        "Stripe live restricted key (rk_live_)",
    ),
    detector!(
        "stripe_webhook_secret",
        Secret,
        r"\bwhsec_[A-Za-z0-9+/=]{32,}",
        Some(random_after::<6>),
        "Stripe webhook signing secret (whsec_)",
    ),
    detector!(
        "shopify_token",
        Secret,
        r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b",
        Some(random_after::<6>),
        "Shopify admin, custom-app, private-app or shared secret (shpat_, shpca_, shppa_, shpss_)",
    ),
    // --- AI providers ---------------------------------------------------------
    detector!(
        "openai_api_key",
        Secret,
        concat!(
            r"\bsk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]*T3BlbkFJ[A-Za-z0-9_-]+",
            r"|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}"
        ),
        Some(openai_api_key),
        "OpenAI API key (sk-…T3BlbkFJ…, sk-proj-, sk-svcacct-, sk-admin-)",
    ),
    detector!(
        "anthropic_api_key",
        Secret,
        r"\bsk-ant-(?:api|admin|oat|ort)[0-9]{2}-[A-Za-z0-9_-]{80,}",
        Some(anthropic_api_key),
        "Anthropic API or admin key (sk-ant-api03-…, sk-ant-admin01-…)",
    ),
    detector!(
        "huggingface_token",
        Secret,
        r"\b(?:hf_|api_org_)[A-Za-z]{34}\b",
        Some(huggingface_token),
        "Hugging Face user (hf_) or organization (api_org_) access token",
    ),
    detector!(
        "groq_api_key",
        Secret,
        r"\bgsk_[A-Za-z0-9]{52}\b",
        Some(random_after::<4>),
        "Groq API key (gsk_ + 52)",
    ),
    // --- Infrastructure and developer tools -------------------------------------
    detector!(
        "vault_token",
        Secret,
        r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}",
        Some(random_after::<4>),
        "HashiCorp Vault service, batch or recovery token (hvs., hvb., hvr.)",
    ),
    detector!(
        "databricks_token",
        Secret,
        r"\bdapi[a-f0-9]{32}(?:-[0-9])?\b",
        Some(databricks_token),
        "Databricks personal access token (dapi + 32 hex)",
    ),
    detector!(
        "pulumi_access_token",
        Secret,
        r"\bpul-[a-f0-9]{40}\b",
        Some(random_after::<4>),
        "Pulumi access token (pul- + 40 hex)",
    ),
    detector!(
        "doppler_token",
        Secret,
        r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b",
        Some(doppler_token),
        "Doppler personal, service, service-account, CLI, SCIM or audit token (dp.pt., dp.st., …)",
    ),
    detector!(
        "postman_api_key",
        Secret,
        r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b",
        Some(random_after::<5>),
        "Postman API key (PMAK-)",
    ),
    detector!(
        "grafana_token",
        Secret,
        r"\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|\bglc_[A-Za-z0-9+/]{32,}={0,2}",
        Some(grafana_token),
        "Grafana service-account token (glsa_) or Grafana Cloud access policy token (glc_)",
    ),
    detector!(
        "new_relic_key",
        Secret,
        r"\bNRAK-[A-Z0-9]{27}\b",
        Some(random_after::<5>),
        "New Relic user API key (NRAK-)",
    ),
    detector!(
        "linear_api_key",
        Secret,
        r"\blin_api_[A-Za-z0-9]{40}\b",
        Some(random_after::<8>),
        "Linear API key (lin_api_)",
    ),
    detector!(
        "sentry_token",
        Secret,
        r"\bsntry[su]_[A-Za-z0-9+/=_]{40,}",
        Some(random_after::<7>),
        "Sentry organization (sntrys_) or user (sntryu_) auth token",
    ),
    detector!(
        "onepassword_token",
        Secret,
        r"\bops_eyJ[A-Za-z0-9+/]{250,}={0,3}",
        Some(random_after::<4>),
        "1Password service account token (ops_eyJ…, 250+ base64)",
    ),
    detector!(
        "alibaba_access_key_id",
        Secret,
        r"\bLTAI[A-Za-z0-9]{12,20}\b",
        Some(random_after::<4>),
        "Alibaba Cloud AccessKey ID (LTAI + 12–20)",
    ),
    detector!(
        "atlassian_api_token",
        Secret,
        r"\bATATT3[A-Za-z0-9_=-]{186,}",
        Some(random_len::<6, 192>),
        "Atlassian (Jira, Confluence) API token (ATATT3 + 186)",
    ),
    detector!(
        "clojars_token",
        Secret,
        r"\bCLOJARS_[a-z0-9]{60,}",
        Some(random_len::<8, 68>),
        "Clojars deploy token (CLOJARS_ + 60)",
    ),
    detector!(
        "dynatrace_token",
        Secret,
        r"\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b",
        Some(random_after::<7>),
        "Dynatrace API token (dt0c01.<24>.<64>)",
    ),
    detector!(
        "easypost_api_key",
        Secret,
        r"\bEZAK[A-Za-z0-9]{54,}",
        Some(random_len::<4, 58>),
        "EasyPost production API key (EZAK + 54)",
    ),
    detector!(
        "flyio_token",
        Secret,
        r"\b(?:fo1_[A-Za-z0-9_-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})",
        Some(random_after::<4>),
        "Fly.io access token (fo1_, fm1a_, fm1r_, fm2_)",
    ),
    detector!(
        "gitlab_token",
        Secret,
        r"\bgl(?:dt|ft|soat|cbt|ptt|imt|agent|oas)-[0-9A-Za-z_.-]{20,}",
        Some(after_dash),
        "GitLab deploy, feed, SCIM, CI/CD job, pipeline trigger, incoming mail, agent or OAuth application token (gldt-, glft-, glsoat-, glcbt-, glptt-, glimt-, glagent-, gloas-)",
    ),
    detector!(
        "heroku_api_key",
        Secret,
        r"\bHRKU-AA[0-9A-Za-z_-]{58}\b",
        Some(random_after::<5>),
        "Heroku API key (HRKU-AA + 58)",
    ),
    detector!(
        "notion_token",
        Secret,
        r"\bntn_[0-9]{11}[A-Za-z0-9]{35}\b",
        Some(random_after::<4>),
        "Notion integration token (ntn_ + 11 digits + 35)",
    ),
    detector!(
        "openshift_token",
        Secret,
        r"\bsha256~[A-Za-z0-9_-]{43}\b",
        Some(random_after::<7>),
        "OpenShift user or service account token (sha256~ + 43)",
    ),
    detector!(
        "perplexity_api_key",
        Secret,
        r"\bpplx-[A-Za-z0-9]{48}\b",
        Some(random_after::<5>),
        "Perplexity API key (pplx- + 48)",
    ),
    detector!(
        "planetscale_token",
        Secret,
        r"\bpscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}",
        Some(after_underscore),
        "PlanetScale service token, OAuth token or database password (pscale_tkn_, pscale_oauth_, pscale_pw_)",
    ),
    detector!(
        "prefect_api_key",
        Secret,
        r"\bpnu_[A-Za-z0-9]{36}\b",
        Some(random_after::<4>),
        "Prefect Cloud API key (pnu_ + 36)",
    ),
    detector!(
        "rubygems_api_key",
        Secret,
        r"\brubygems_[a-f0-9]{48}\b",
        Some(random_after::<9>),
        "RubyGems API key (rubygems_ + 48 hex)",
    ),
    detector!(
        "brevo_api_key",
        Secret,
        r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b",
        Some(random_after::<8>),
        "Brevo (Sendinblue) API key (xkeysib- + 64 hex + 16)",
    ),
    detector!(
        "shippo_token",
        Secret,
        r"\bshippo_live_[a-fA-F0-9]{40}\b",
        Some(random_after::<12>),
        "Shippo live API token (shippo_live_ + 40 hex)",
    ),
    detector!(
        "square_token",
        Secret,
        r"\b(?:EAAA[A-Za-z0-9_-]{60}|sq0atp-[A-Za-z0-9_-]{22}|sq0csp-[A-Za-z0-9_-]{43})\b",
        Some(random_after::<4>),
        "Square access token (EAAA + 60, sq0atp- + 22) or OAuth secret (sq0csp- + 43)",
    ),
    detector!(
        "docker_hub_token",
        Secret,
        r"\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}",
        Some(random_after::<9>),
        "Docker Hub personal or organization access token (dckr_pat_, dckr_oat_)",
    ),
    detector!(
        "xai_api_key",
        Secret,
        r"\bxai-[A-Za-z0-9]{80}\b",
        Some(random_after::<4>),
        "xAI (Grok) API key (xai- + 80)",
    ),
    detector!(
        "openrouter_api_key",
        Secret,
        r"\bsk-or-v1-[a-f0-9]{64}\b",
        Some(random_after::<9>),
        "OpenRouter API key (sk-or-v1- + 64 hex)",
    ),
    detector!(
        "langsmith_api_key",
        Secret,
        r"\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b",
        Some(random_after::<8>),
        "LangSmith personal access token or service key (lsv2_pt_, lsv2_sk_)",
    ),
    detector!(
        "tavily_api_key",
        Secret,
        r"\btvly-(?:dev-|prod-)?[A-Za-z0-9]{32}\b",
        Some(after_dash),
        "Tavily API key (tvly- + 32)",
    ),
    detector!(
        "replicate_api_token",
        Secret,
        r"\br8_[A-Za-z0-9]{37}\b",
        Some(random_after::<3>),
        "Replicate API token (r8_ + 37)",
    ),
    detector!(
        "artifactory_token",
        Secret,
        r"\b(?:AKCp[A-Za-z0-9]{69}|cmVmdGtu[A-Za-z0-9]{56})\b",
        Some(artifactory_token),
        "JFrog Artifactory API key (AKCp + 69) or reference token (base64 of reftkn:…)",
    ),
    detector!(
        "teams_webhook_url",
        Secret,
        // From the tenant's host on (after `https://`): the scanner filters
        // on `.webhook.office.com/webhookb2/`, not on every `https://`.
        r"[a-z0-9-]*\.webhook\.office\.com/webhookb2/[a-f0-9-]{36}@[a-f0-9-]{36}/IncomingWebhook/[a-f0-9]{32}/[a-f0-9-]{36}",
        Some(teams_webhook_url),
        "Microsoft Teams incoming webhook URL",
    ),
    detector!(
        "discord_webhook_url",
        Secret,
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/[A-Za-z0-9_-]{60,}",
        Some(discord_webhook_url),
        "Discord webhook URL (…/api/webhooks/<id>/<token>)",
    ),
    detector!(
        "mapbox_secret_token",
        Secret,
        r"\bsk\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{22,}",
        Some(mapbox_secret_token),
        "Mapbox secret access token (sk.eyJ…, its middle part decodes to JSON)",
    ),
    detector!(
        "age_secret_key",
        Secret,
        r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b",
        Some(age_secret_key),
        "age file-encryption secret key (AGE-SECRET-KEY-1…, Bech32 checked)",
    ),
    detector!(
        "private_key",
        Secret,
        concat!(
            r"(?:-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----",
            r"|---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----",
            r"|PuTTY-User-Key-File-[0-9]: [^\r\n]*(?:\r?\n[^\r\n]*)*?\r?\nPrivate-Lines: [0-9]+)",
            // Base64 lines, and `Name: value` header lines (encrypted PEM,
            // PGP armor, SSH2 comments).
            r"(?:[A-Za-z][A-Za-z-]*: [^\r\n]*\r?\n|[A-Za-z0-9+/=:,.\\\s]|-[A-Za-z0-9])*",
            r"(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|---- END SSH2 ENCRYPTED PRIVATE KEY ----)?"
        ),
        Some(private_key),
        "Private key (PEM: RSA, EC, DSA, PKCS#8, encrypted; OpenSSH, PGP, SSH2, PuTTY), header to footer or cut short (public keys and certificates never match)",
    ),
    // --- Generic credentials --------------------------------------------------
    detector!(
        "jwt",
        Secret,
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*",
        Some(jwt),
        "Signed JSON Web Token whose header decodes to JSON with `alg`",
    ),
    detector!(
        "bearer_token",
        Secret,
        r"(?i)\bbearer[ \t]+[A-Za-z0-9._~+/-]{16,}=*",
        Some(bearer_token),
        "Bearer token (as in an `Authorization: Bearer …` header) with a high-entropy value",
    ),
    detector!(
        "basic_auth_header",
        Secret,
        concat!(
            r"(?i)\bbasic[ \t]+[A-Za-z0-9+/]{8,}={0,2}",
            // A container registry's `auth` (`.dockerconfigjson`,
            // `~/.docker/config.json`), also in JSON held in a string.
            r#"|(?i)\\?"auth\\?"[ \t]*:[ \t]*\\?"[A-Za-z0-9+/]{8,}={0,2}"#
        ),
        Some(basic_auth_header),
        "HTTP Basic credentials (`Basic base64(user:password)`), or a container registry's `\"auth\"` (base64 of user:password), with a real-looking password",
    )
    .paired(basic_auth_pair)
    .apart(),
    detector!(
        "url_password",
        Secret,
        // The user and the password are at most 128 characters each: the
        // validator counts them. As bounds in the pattern they made a
        // regex that took 3 ms to build, paid by every hook whose text
        // holds a URL.
        r#"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:@/?#"'<>]*:[^\s:@/?#"'<>]+@"#,
        Some(url_password),
        "URL or connection string with an embedded password (postgres://user:pass@host)",
    ),
    detector!(
        "password_assignment",
        Secret,
        concat!(
            // One leading run of name characters, then the name's word: the
            // scanner finds the word first and grows the match backwards.
            r"(?i)[a-z0-9_.-]*(?:(?:pass(?:word|wd|phrase)|pwd)[a-z0-9_.-]*|[_.-]pass|\bpass)",
            r#"(?:\\?["'])?[ \t]*(?:=>|:=|=|:)[ \t]*"#,
            // The validator wants 6 characters or more, and cuts an
            // unquoted value at the next `,name=` or `&name=`.
            r#"(?:"[^"\r\n]{6,}"|'[^'\r\n]{6,}'|\\"[^"\\\r\n]{6,}\\"|[^\s"'\\;]{6,})"#
        ),
        Some(password_assignment),
        "A password assigned to a password-like name (password=, DB_PASSWORD:, \"passwd\": …) that is not a placeholder, word or reference",
    )
    .paired(password_pair),
    detector!(
        "secret_assignment",
        Secret,
        concat!(
            // One leading run of name characters, then the name's word.
            r"(?i)[a-z0-9_.-]*(?:(?:secret|token|api[_.-]?key|apikey|access[_.-]?key|auth[_.-]?key",
            r"|private[_.-]?key|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|credentials?)",
            r"[a-z0-9_.-]*|[_.-]key|(?-i:Key))",
            r#"(?:\\?["'])?[ \t]*(?:=>|:=|=|:)[ \t]*"#,
            // The validator wants 12 characters or more.
            r#"(?:"[^"\r\n]{12,}"|'[^'\r\n]{12,}'|\\"[^"\\\r\n]{12,}\\"|[^\s"'\\,;&]{12,})"#
        ),
        Some(secret_assignment),
        "A high-entropy value assigned to a secret-like name (api_key=, token:, client_secret, AZURE_STORAGE_KEY=, …)",
    )
    .paired(secret_pair),
    detector!(
        "xml_credential",
        Secret,
        concat!(
            r#"(?i:key|name)=["'][^"'<>\r\n]{1,64}["'][ \t]+(?i:value)=["'][^"'\r\n]{6,}"#,
            // `<password>VALUE</`, `<apiKey>`: matched from the end of the
            // name back (the validator wants the leading `<`), filtered on
            // the name's last word and `>`.
            r"|(?i)[<a-z0-9_.:-]*(?:pass(?:word|wd|phrase)?|pwd|secret|token|key|credentials?)>[^<\s]{6,}</"
        ),
        Some(xml_credential),
        "A password or secret in XML configuration: <add key=\"SmtpPassword\" value=\"…\"/>, <password>…</password>",
    )
    .apart(),
    detector!(
        "credential_argument",
        Secret,
        concat!(
            // `--db-password VALUE`: the option's words are matched from
            // `-` and its name back (the validator wants the leading `--`),
            // so that the scanner filters on `-password `, not on every `--`.
            r"[a-z0-9-]*-(?:password|passwd|pass|pwd|passphrase|token|secret|api-key|apikey|access-key|secret-key|client-secret|auth-token)[ \t]+",
            arg!(),
            r"|\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlslap|mariadb|mariadb-dump|mariadb-admin)\b[^\r\n|;&]*?[ \t]-p",
            arg!(),
            // `7z x … -p…`, `7z -p…`, `7za …`: four bytes or more before
            // any class, so that the filter indexes no three-byte literal.
            r"|\b7z(?:[ \t][abdehilrtux][^\r\n|;&]*?[ \t]|[ \t]|[ar][ \t](?:[^\r\n|;&]*?[ \t])?)-p",
            arg!(),
            r"|\blogin\b[^\r\n|;&]*?[ \t]-p[ \t]+",
            arg!(),
            r"|\bsshpass[ \t]+-p[ \t]*",
            arg!(),
            r"|\b(?:curl|wget)\b[^\r\n|;&]*?[ \t](?:-u|--user)(?:[ \t]+|=)",
            r#"(?:"[^"\r\n:]*:[^"\r\n]{4,}"|'[^'\r\n:]*:[^'\r\n]{4,}'|[^\s"':|;&<>]*:[^\s"'|;&<>]{4,})"#,
            r"|\bredis-cli\b[^\r\n|;&]*?[ \t]-a[ \t]+",
            arg!(),
            r"|\bldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn)\b[^\r\n|;&]*?[ \t]-w[ \t]+",
            arg!(),
            r"|\b(?:sqlcmd|bcp|osql|isql)(?:\.exe)?(?:[ \t][^\r\n|;&]*?)?[ \t]-P[ \t]*",
            arg!(),
            r"|\b(?:zip|unzip)(?:\.exe)?(?:[ \t][^\r\n|;&]*?)?[ \t]-P[ \t]+",
            arg!(),
            r"|\bmongo(?:sh|dump|restore|import|export)?\b[^\r\n|;&]*?[ \t]-p[ \t]+",
            arg!(),
            r"|\bsmbclient\b[^\r\n|;&]*?[ \t]-U[ \t]*",
            r#"(?:"[^"\r\n%]*%[^"\r\n]{4,}"|'[^'\r\n%]*%[^'\r\n]{4,}'|[^\s"'%|;&<>]*%[^\s"'|;&<>]{4,})"#,
            r"|[ \t]-pass(?:in|out)?[ \t]+",
            r#"(?:"pass:[^"\r\n]{4,}"|'pass:[^'\r\n]{4,}'|pass:[^\s"'|;&<>]{4,})"#,
            r"|[ \t]-(?:src|dest)?(?:storepass|keypass)[ \t]+",
            arg!(),
        ),
        Some(credential_argument),
        "A password, token or key given to a command on its command line (--password …, mysql -p…, docker login -p …, curl -u user:…, openssl -passin pass:…)",
    )
    .apart(),
];

// --- Validators -------------------------------------------------------------

/// `m` without its first `n` bytes (the token prefix), or `""`.
fn tail(m: &str, n: usize) -> &str {
    m.get(n..).unwrap_or_default()
}

/// A token whose first `N` bytes are its fixed prefix: the rest must look
/// random (no placeholder, no documented example, not low-entropy).
fn random_after<const N: usize>(m: &str) -> bool {
    random_token(tail(m, N))
}

/// [`random_after`] for a token of exactly `LEN` bytes (the pattern matched
/// greedily, so a longer run of token characters is not taken for one).
fn random_len<const N: usize, const LEN: usize>(m: &str) -> bool {
    m.len() == LEN && random_token(tail(m, N))
}

/// The random part after the prefix's last `-`.
fn after_dash(m: &str) -> bool {
    random_token(m.rsplit('-').next().unwrap_or_default())
}

/// The random part after the prefix (`pscale_tkn_…`): the third `_` part on.
fn after_underscore(m: &str) -> bool {
    random_token(m.splitn(3, '_').nth(2).unwrap_or_default())
}

/// An API key's random body, or a reference token that decodes to `reftkn:`.
fn artifactory_token(m: &str) -> bool {
    match m.strip_prefix("AKCp") {
        Some(body) => body.len() == 69 && random_token(body),
        None => {
            m.len() == 64
                && base64_decode(m).is_some_and(|d| d.starts_with(b"reftkn:"))
                && random_token(tail(m, 8))
        }
    }
}

/// The webhook's 32-hex secret part is random.
fn teams_webhook_url(m: &str) -> bool {
    !m.starts_with('.')
        && m.split("/IncomingWebhook/")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .is_some_and(|secret| secret.len() == 32 && random_token(secret))
}

/// The webhook's token (last segment, 68 characters) is random.
fn discord_webhook_url(m: &str) -> bool {
    let token = m.rsplit('/').next().unwrap_or_default();
    (60..=80).contains(&token.len()) && random_token(token)
}

/// The middle part decodes to a JSON object (`{"u":"…","a":"…"}`) and the
/// signature is random.
fn mapbox_secret_token(m: &str) -> bool {
    let mut parts = m.split('.').skip(1);
    let (Some(claims), Some(signature)) = (parts.next(), parts.next()) else {
        return false;
    };
    let claims_ok = base64_decode(claims)
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| v.get("u").is_some());
    claims_ok && random_token(signature)
}

/// The run of 40 base64 characters that ends the match ([`aws_secret_value`]);
/// a longer run, or one followed by padding, is another token.
fn aws_secret_access_key(m: &str) -> bool {
    if m.ends_with('=') {
        return false;
    }
    // The run is ASCII; the character before it may not be (`secret：…`).
    let start = m
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '/' | '+' | '_' | '-')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let key = &m[start..];
    // Near `secret` alone (`client_secret: …`) a run of 40 letters and
    // digits is as likely another service's secret: an AWS key then needs
    // the `/` or `+` that base64 of random bytes almost always has.
    let lower = m.to_ascii_lowercase();
    let aws = lower.contains("aws")
        || lower.contains("access")
        || m.contains("AKIA")
        || m.contains("ASIA");
    (aws || key.contains(['/', '+'])) && aws_secret_value(key)
}

/// The 88 characters that end the match ([`azure_storage_value`]).
fn azure_storage_key(m: &str) -> bool {
    m.len() >= 88 && m.is_char_boundary(m.len() - 88) && azure_storage_value(&m[m.len() - 88..])
}

/// Classic GitHub tokens end in the CRC-32 of their 30 random characters,
/// in six base-62 digits: a real token always passes, a made-up one almost
/// never does.
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
fn github_classic_token(m: &str) -> bool {
    let body = m.as_bytes().get(4..).unwrap_or_default();
    body.len() == 36 && base62_6(crc32(&body[..30])) == body[30..]
}

/// The random part after `glrt-` or the `GR1348941` registration prefix.
fn gitlab_runner_token(m: &str) -> bool {
    let body = m
        .strip_prefix("glrt-")
        .or_else(|| m.strip_prefix("GR1348941"))
        .unwrap_or(m);
    random_token(body)
}

/// At least 30 characters, a numeric id group (real tokens carry team and
/// user ids) and a random final group: `xoxb-your-token` is no token.
fn slack_token(m: &str) -> bool {
    let mut groups = m.split('-').skip(1);
    let last = m.rsplit('-').next().unwrap_or_default();
    m.len() >= 30 && groups.any(all_digits) && random_token(last)
}

/// The final path segment is the webhook's secret: random, 16+ characters
/// (not the docs' `XXXXXXXXXXXXXXXXXXXXXXXX`).
fn slack_webhook_url(m: &str) -> bool {
    let last = m
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    last.len() >= 16 && random_token(last)
}

/// The middle part is the bot's user id (a snowflake of 17–20 digits) in
/// base64.
fn discord_bot_token(m: &str) -> bool {
    let parts: Vec<&str> = m.split('.').collect();
    let [id, _, hmac] = parts[..] else {
        return false;
    };
    let id_ok = base64_decode(id)
        .is_some_and(|d| (17..=20).contains(&d.len()) && d.iter().all(u8::is_ascii_digit));
    id_ok && (27..=38).contains(&hmac.len()) && random_token(hmac)
}

/// Exactly 35 random characters after the bot id and colon.
fn telegram_bot_token(m: &str) -> bool {
    let secret = m.split_once(':').map(|(_, s)| s).unwrap_or_default();
    secret.len() == 35 && random_token(secret)
}

/// `SG.` + a 22-character id + a 43-character secret, both random.
fn sendgrid_api_key(m: &str) -> bool {
    let parts: Vec<&str> = m.split('.').collect();
    matches!(parts[..], [_, id, key] if id.len() == 22 && key.len() == 43 && random_token(id) && random_token(key))
}

/// The 32 hex digits before the data-centre suffix look random.
fn mailchimp_api_key(m: &str) -> bool {
    random_token(m.get(..32).unwrap_or_default())
}

/// At least 40 characters and a random body after `sk-`.
fn openai_api_key(m: &str) -> bool {
    m.len() >= 40 && random_token(tail(m, 3))
}

/// A random body after `sk-ant-<kind><version>-`.
fn anthropic_api_key(m: &str) -> bool {
    let body = m.match_indices('-').nth(2).map_or("", |(i, _)| &m[i + 1..]);
    random_token(body)
}

/// The 34 letters after `hf_` / `api_org_` look random.
fn huggingface_token(m: &str) -> bool {
    let body = m.rsplit('_').next().unwrap_or_default();
    random_token(body)
}

/// The 32 hex digits after `dapi` look random.
fn databricks_token(m: &str) -> bool {
    random_token(m.get(4..36).unwrap_or_default())
}

/// The random part after the `dp.<kind>.` prefix.
fn doppler_token(m: &str) -> bool {
    random_token(m.rsplit('.').next().unwrap_or_default())
}

/// The random part after `glsa_` / `glc_`.
fn grafana_token(m: &str) -> bool {
    let body = m.split_once('_').map(|(_, b)| b).unwrap_or_default();
    random_token(body.trim_end_matches('='))
}

/// age keys are Bech32 with the human-readable part `age-secret-key-`.
fn age_secret_key(m: &str) -> bool {
    bech32_valid(&m.to_ascii_lowercase())
}

/// The Bech32 (BIP 173) checksum of `hrp1data`.
fn bech32_valid(s: &str) -> bool {
    const CHARSET: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    const GEN: [u32; 5] = [
        0x3b6a_57b2,
        0x2650_8e6d,
        0x1ea1_19fa,
        0x3d42_33dd,
        0x2a14_62b3,
    ];
    let Some((hrp, data)) = s.rsplit_once('1') else {
        return false;
    };
    let polymod = |values: &mut dyn Iterator<Item = u32>| {
        let mut chk = 1u32;
        for v in values {
            let top = chk >> 25;
            chk = ((chk & 0x1ff_ffff) << 5) ^ v;
            for (i, g) in GEN.iter().enumerate() {
                if (top >> i) & 1 == 1 {
                    chk ^= g;
                }
            }
        }
        chk
    };
    let mut values = Vec::with_capacity(hrp.len() * 2 + 1 + data.len());
    values.extend(hrp.bytes().map(|b| u32::from(b >> 5)));
    values.push(0);
    values.extend(hrp.bytes().map(|b| u32::from(b & 31)));
    for b in data.bytes() {
        match CHARSET.iter().position(|&c| c == b) {
            Some(p) => values.push(p as u32),
            None => return false,
        }
    }
    data.len() >= 6 && polymod(&mut values.into_iter()) == 1
}

/// The first base64 characters of keys of a kind, the same in every key
/// (ASN.1 lengths and algorithm identifiers, the OpenSSH magic): not key
/// material.
const KEY_PREAMBLES: &[&str] = &[
    "b3BlbnNzaC1rZXktdjEAAAAA",
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
    "MIIJQwIBADANBgkqhkiG9w0BAQEFAASC",
    "MIIJQgIBADANBgkqhkiG9w0BAQEFAASC",
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg",
    "MC4CAQAwBQYDK2VwBCIEI",
    "MIIEpAIBAAKCAQEA",
    "MIIEowIBAAKCAQEA",
    "MIIJKAIBAAKCAgEA",
    "MIIJKQIBAAKCAgEA",
    "MHcCAQEEI",
];

/// A private key needs key material after its header: 64 base64
/// characters or more with 4+ bits of entropy per character, or, when the
/// body is cut short, 16 or more beyond the kind's fixed preamble, on lines
/// of their own, with both cases and digits and no placeholder in it
/// (`...`, `<your key here>`, `xxxx`). Docs' bodies
/// (`...`, `MIIEpAIBAAKCAQEA...`, `YOUR_KEY_HERE`) do not count.
fn private_key(m: &str) -> bool {
    let body = if let Some(at) = m.find("Private-Lines:") {
        // PuTTY: the private lines follow their count.
        m[at..].split_once('\n').map_or("", |(_, rest)| rest)
    } else {
        let header_end = m
            .find("PRIVATE KEY")
            .map(|i| i + "PRIVATE KEY".len())
            .unwrap_or_default();
        m[header_end..].trim_start_matches([' ', 'B', 'L', 'O', 'C', 'K', '-'])
    };
    let body = body
        .split("-----END")
        .next()
        .and_then(|b| b.split("---- END").next())
        .unwrap_or_default();
    // Skip `Key: value` header lines of encrypted PEM and PGP armor.
    let b64: String = body
        .lines()
        .filter(|l| !l.contains(':'))
        .flat_map(str::chars)
        .filter(|c| c.is_ascii_alphanumeric() || *c == '+' || *c == '/')
        .collect();
    if b64.len() >= 64 && entropy(&b64) >= 4.0 {
        return true;
    }
    let material = KEY_PREAMBLES
        .iter()
        .find_map(|p| b64.strip_prefix(p))
        .unwrap_or(&b64);
    // Key material is base64 on lines of their own: no words with spaces
    // between them, letters of both cases and digits.
    let prose = body
        .lines()
        .any(|l| !l.contains(':') && l.trim().contains([' ', '\t']));
    let lower = material.to_ascii_lowercase();
    !prose
        && material.len() >= 16
        && material.bytes().any(|b| b.is_ascii_uppercase())
        && material.bytes().any(|b| b.is_ascii_lowercase())
        && material.bytes().any(|b| b.is_ascii_digit())
        && !body.contains("...")
        && ![
            "your", "here", "example", "xxxx", "paste", "insert", "redacted",
        ]
        .iter()
        .any(|w| lower.contains(w))
        && entropy(material) >= 3.0
}

/// Header and payload decode to JSON objects, the header names an `alg`,
/// and there is a signature of 16+ characters that is not a documented
/// example's.
fn jwt(m: &str) -> bool {
    let mut parts = m.split('.');
    let (Some(header), Some(payload), Some(signature)) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let json = |part: &str| {
        base64_decode(part).and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
    };
    let header_ok = json(header).is_some_and(|h| h.get("alg").is_some_and(|a| a.is_string()));
    let payload_ok = json(payload).is_some_and(|p| p.is_object());
    // `is_placeholder` knows the signature of jwt.io's example token.
    header_ok && payload_ok && signature.len() >= 16 && !is_placeholder(signature)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_after_a_character_that_is_not_ascii() {
        for m in [
            "secret\u{ff1a}8fH2kL9mQ1xR7vT3nB6yW4zC0pD5sJ/gE+aU1iO2",
            "aws \u{e9}8fH2kL9mQ1xR7vT3nB6yW4zC0pD5sJ/gE+aU1iO2",
            "aws \u{1f511}8fH2kL9mQ1xR7vT3nB6yW4zC0pD5sJ/gE+aU1iO2",
        ] {
            assert!(aws_secret_access_key(m), "{m}");
        }
    }

    #[test]
    fn github_checksum() {
        // Tokens published (revoked) in public test suites of other scanners.
        assert!(github_classic_token(
            "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"
        ));
        assert!(github_classic_token(
            "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"
        ));
        assert!(!github_classic_token(
            "ghp_M7H4jxUDDWHP4kZ6A4dxlQYsQIWJuq11T4V3"
        ));
        assert!(!github_classic_token(
            "ghp_abcdefghijklmnopqrstuvwxyzABCD012345"
        ));
    }

    #[test]
    fn bech32() {
        // BIP 173 test vectors.
        assert!(bech32_valid("a12uel5l"));
        assert!(bech32_valid(
            "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw"
        ));
        assert!(!bech32_valid("a12uel5m"));
    }

    #[test]
    fn jwt_validation() {
        let header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";
        let payload = "eyJzdWIiOiI0MiIsImlhdCI6MTcwMDAwMDAwMH0";
        assert!(jwt(&format!(
            "{header}.{payload}.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        )));
        assert!(!jwt(&format!(
            "{header}.{payload}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
        )));
        // Header without `alg`.
        assert!(!jwt(&format!(
            "eyJ0eXAiOiJKV1QifQ.{payload}.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        )));
    }
}
