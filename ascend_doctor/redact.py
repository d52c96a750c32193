"""Redaction for everything that leaves the machine (bundles, and any renderer that wants it).

`is_secret(name, value)` is THE policy for "is this a secret", by name (…_PWD, …PASSWORD…,
…_AK/_SK, …KEY…, …TOKEN…, …SESSION…, …CREDENTIAL…) or by value (token formats, private keys,
URLs with user:password@). Everything in the package that shows or stores an environment value
asks it (directly, or through `shown_env_value` / `Redactor`): collect, the report as it is built
(doctor.evaluate), the launch and environment probes (`probes.launch`, `probes.environment`), the HCCL
name check.

Environment variables are kept in bundles by ALLOWLIST: a variable's value is kept only if its
name is known to be configuration (PATH, ASCEND_*, HCCL_*, ...) and is not a secret by the policy.
Every other value becomes "<redacted>" (the name stays, so "is it set?" questions still have an answer).

Text (files, command output, logs, the report) is scrubbed of: private-key blocks,
credentials in URLs (scheme://user:pass@), `NAME=value`/`NAME: value`/`--name value` whose NAME
is a secret by the policy,
well-known token formats (GitHub, AWS, Slack, JWT, Hugging Face, bearer tokens), and
every value of a secret-looking environment variable wherever it appears. With
`redact_ips`, IPv4 addresses are replaced consistently (same address, same mask)
by addresses in 198.18.0.0/15 (reserved for benchmarks), so files that must agree
with each other (rank table, hccn.conf, hccn_tool output) still agree.
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, Mapping, Optional

from .lazyre import lazy_compile

REDACTED = "<redacted>"

SAFE_ENV_NAMES = frozenset("""
PATH LD_LIBRARY_PATH LD_PRELOAD PYTHONPATH PYTHONHOME PYTHONUNBUFFERED PYTHONNOUSERSITE HOME USER LOGNAME SHELL
LANG LANGUAGE TERM PWD HOSTNAME TZ TMPDIR VIRTUAL_ENV CONDA_PREFIX CONDA_DEFAULT_ENV CONDA_EXE CONDA_PYTHON_EXE
OMP_NUM_THREADS MKL_NUM_THREADS NO_COLOR DEVICE_ID RANK_ID RANK_SIZE RANK_TABLE_FILE LOCAL_RANK RANK WORLD_SIZE
LOCAL_WORLD_SIZE MASTER_ADDR MASTER_PORT SERVER_ID JOB_ID POD_NAME NODE_RANK TOOLCHAIN_HOME DDK_PATH NPU_HOST_LIB
HTTP_PROXY HTTPS_PROXY NO_PROXY http_proxy https_proxy no_proxy PIP_INDEX_URL PIP_EXTRA_INDEX_URL
KUBERNETES_SERVICE_HOST CUDA_HOME CUDA_PATH CUDA_VISIBLE_DEVICES NVIDIA_VISIBLE_DEVICES
""".split())
SAFE_ENV_PREFIXES = ("ASCEND_", "HCCL_", "HCCN_", "MS_", "MSRUN_", "MINDSPORE_", "GLOG_", "NCCL_", "CUDA_", "CUDNN_",
                     "LC_", "TBE_", "OPTION_", "PYTORCH_NPU_", "TORCH_", "ATB_", "MINDIE_", "NPU_", "CANN_", "GE_",
                     "ACL_", "OPP_", "DUMP_GE_", "RANK_", "DEVICE_")
_URL_CREDS = lazy_compile(r"(?i)\b([a-z][a-z0-9+.-]*://)([^\s/:@]+):([^\s/@]+)@")
# `NAME=value`, `NAME: value`, `"name": "value"` and `--name value` whose NAME is a secret by the policy
# (is_secret_name). The regexes only pre-select names containing a secret-ish stem; the policy decides.
_STEMS = r"(?:pass|pwd|pw|secret|token|credential|session|cookie|private|signature|key|auth|ak|sk|pin)"
_ASSIGNMENT = lazy_compile(r"(?i)(?<![\w.-])([\w.-]*" + _STEMS + r"[\w.-]*)([\"']?\s*[=:]\s*)([\"']?)([^\s\"',;}]+)")
_CLI_SECRET = lazy_compile(r"(?i)(?<![\w-])(--?([\w-]*" + _STEMS + r"[\w-]*)[ =])([^\s\"']+)")
# A text without a stem matches neither (the same answer; the two regexes cost ~20 us a line of a log, and a
# log line nearly always holds a ":"); for ASCII text (?i) means ASCII case only, so lower() and `in` say the same
_STEM_HINT = lazy_compile(_STEMS, re.I)
_STEM_WORDS = tuple(_STEMS[3:-1].split("|"))


def _may_hold_stem(text: str) -> bool:
    if text.isascii():
        low = text.lower()
        return any(w in low for w in _STEM_WORDS)
    return _STEM_HINT.search(text) is not None


# Token formats, each with a literal every match of it contains: a text without that literal is not searched
# (the same answer, less work; a format no text needs is never even compiled). The bearer format is
# case-insensitive: its literal is looked for in the lower-cased text.
_TOKENS = [
    ("gh", lazy_compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}\b")),
    ("github_pat_", lazy_compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}\b")),
    ("IA", lazy_compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("xox", lazy_compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}")),
    ("eyJ", lazy_compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("hf_", lazy_compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    ("sk-", lazy_compile(r"\bsk-[A-Za-z0-9_-]{20,}")),
    ("bearer", lazy_compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{10,}=*")),
]


def _may_hold(literal: str, text: str) -> bool:
    """False when no match of the token format with this literal can be in `text` (see _TOKENS)."""
    return literal in (text.lower() if literal == "bearer" else text)
_PRIVATE_KEY = lazy_compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S)
_IPV4 = lazy_compile(r"(?<![\w.])((?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})(?![\w]|\.\d)")
_MIN_SECRET_LEN = 4

# ---------------------------------------------------------------------------
# THE policy for "is this a secret" (every caller in the package goes through is_secret)
# ---------------------------------------------------------------------------
# A name is split into upper-case words (HCCL_TLS_PWD -> HCCL TLS PWD; apiKey -> API KEY). It names a
# secret when a word IS one of _SECRET_WORDS, or a word CONTAINS one of _SECRET_PARTS (DBPASSWORD,
# MY_CREDENTIALS, XDG_SESSION_ID, APIKEY). Doubt costs little (the name stays, only the value is
# hidden), a leak costs a lot: so KEY anywhere counts, except inside the few ordinary words below.
_SECRET_WORDS = frozenset({"PWD", "PASS", "PASSWD", "PW", "AK", "SK", "AUTH", "OAUTH", "AUTHORIZATION", "PIN"})
_SECRET_PARTS = ("PASSWORD", "PASSWD", "PASSPHRASE", "SECRET", "TOKEN", "CREDENTIAL", "SESSION", "COOKIE",
                 "PRIVATE", "SIGNATURE", "KEY")
# Ordinary words that merely contain a secret part (HCCL_OP_KEYWORD, KEYBOARD_LAYOUT, TOKENIZERS_PARALLELISM).
_ORDINARY_WORDS = ("KEYWORD", "KEYBOARD", "KEYMAP", "KEYCODE", "MONKEY", "TURNKEY", "TOKENIZER")
# PWD alone (and OLDPWD) is the shell's working directory; KeyError (KEY_ERROR once split) is Python's exception, whose
# `KeyError: 'name'` says which dict key was missing (a weight or config name that a triage title must show).
_NOT_SECRET_NAMES = frozenset({"PWD", "OLDPWD", "KEY_ERROR"})
_CAMEL = lazy_compile(r"([a-z0-9])([A-Z])")
_WORD_SPLIT = lazy_compile(r"[^A-Z0-9]+")


def is_secret_name(name: str) -> bool:
    """True when the name says its value is a secret (see _SECRET_WORDS / _SECRET_PARTS)."""
    upper = _CAMEL.sub(r"\1_\2", str(name)).upper()
    if upper in _NOT_SECRET_NAMES:
        return False
    for word in _WORD_SPLIT.split(upper):
        if not word:
            continue
        if word in _SECRET_WORDS:
            return True
        if any(part in word for part in _SECRET_PARTS) and not any(w in word for w in _ORDINARY_WORDS):
            return True
    return False


def _lists_keys(m: "re.Match") -> bool:
    """An _ASSIGNMENT match that is a message listing keys, not a secret's name and value: the bare lowercase word
    `keys` before a colon (torch's store timeout `wait timeout after 10000ms, keys: /default_pg/0//cpu//0/2` names the
    rank that never came; transformers' `only the following keys: last_hidden_state`). `KEYS:`, `keys=`, `api_keys:`,
    `ssh_keys:` stay secret names, and a token format in the listed keys is still hidden (_TOKENS)."""
    return m.group(1) == "keys" and m.group(2).strip() == ":"


def is_secret_value(value) -> bool:
    """True when the value itself carries a secret: a known token format, a private key, a URL with user:password@."""
    if not isinstance(value, str) or not value:
        return False
    if "PRIVATE KEY-----" in value or any(_may_hold(lit, value) and rx.search(value) for lit, rx in _TOKENS):
        return True
    return "://" in value and _URL_CREDS.search(value) is not None


def is_secret(name: str, value=None) -> bool:
    """THE policy: does this variable (or field) hold a secret, by its name or by its value?

    Names: *_PWD, *PASSWD*, *PASSWORD*, *_PASS, *_AK, *_SK, *CREDENTIAL*, *SESSION*, *TOKEN*, *SECRET*,
    *KEY* (not KEYWORD, KEYBOARD, TOKENIZER ...), *PRIVATE*, *AUTH, *COOKIE*. Values: GitHub/AWS/Slack/Hugging Face/
    OpenAI tokens, JWTs, bearer tokens, private-key blocks, URLs carrying user:password@."""
    return is_secret_name(name) or is_secret_value(value)


def shown_env_value(name: str, value) -> str:
    """An environment value as anything leaving this process may show it: a secret name shows
    only that it is set; otherwise the value with any embedded secret (URL credentials, tokens) scrubbed."""
    if is_secret_name(name):
        return REDACTED
    text = str(value)
    return _scrub_value(text) if is_secret_value(text) else text


def _scrub_value(text: str) -> str:
    text = _URL_CREDS.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    text = _PRIVATE_KEY.sub(REDACTED, text)
    for literal, rx in _TOKENS:
        if _may_hold(literal, text):
            text = rx.sub(REDACTED, text)
    return text


def env_name_is_safe(name: str) -> bool:
    """Allowlist for bundles: a value is kept only under a known configuration name that is not a secret."""
    if is_secret_name(name):
        return False
    return name in SAFE_ENV_NAMES or name.startswith(SAFE_ENV_PREFIXES)


class Redactor:
    """One redaction policy for one collection, so masks are consistent across every file."""

    def __init__(self, env: Optional[Mapping[str, str]] = None, redact_ips: bool = False,
                 also: Iterable[Mapping[str, str]] = ()):
        """`env` (and every mapping in `also`): the environments whose secret values are scrubbed from text."""
        self.redact_ips = redact_ips
        self.ip_map: Dict[str, str] = {}
        self.count = 0  # how many replacements were made (shown by collect --show)
        values = set()
        pairs = [kv for mapping in [env or {}, *also] for kv in mapping.items()]
        for name, value in pairs:
            if not value:
                continue
            if is_secret_name(name) and len(value) >= _MIN_SECRET_LEN:
                values.add(value)
            for m in (_URL_CREDS.finditer(value) if "://" in value else ()):
                if len(m.group(3)) >= _MIN_SECRET_LEN:
                    values.add(m.group(3))
        self._secret_values = sorted(values, key=len, reverse=True)
        self._secret_re = re.compile("|".join(re.escape(v) for v in self._secret_values)) if values else None

    # -- environment --------------------------------------------------------
    def env(self, env: Mapping[str, str]) -> Dict[str, str]:
        out = {}
        for name, value in sorted(env.items()):
            if env_name_is_safe(name):
                out[name] = self.text(value)
            else:
                out[name] = REDACTED
                if value:
                    self.count += 1
        return out

    # -- text ---------------------------------------------------------------
    def text(self, text: str) -> str:
        if not text:
            return text
        n = 0

        def sub(rx, repl, s):
            nonlocal n
            if callable(repl):  # count only what the callback really replaced
                def counted(m, _repl=repl):
                    nonlocal n
                    out = _repl(m)
                    n += out != m.group(0)
                    return out
                return rx.sub(counted, s)
            s, k = rx.subn(repl, s)
            n += k
            return s

        if self._secret_re is not None:
            text = sub(self._secret_re, REDACTED, text)
        if "PRIVATE KEY-----" in text:
            text = sub(_PRIVATE_KEY, "-----BEGIN PRIVATE KEY----- " + REDACTED + " -----END PRIVATE KEY-----", text)
        if "://" in text:
            text = sub(_URL_CREDS, lambda m: f"{m.group(1)}{REDACTED}@", text)
        stem = _may_hold_stem(text)
        if stem and ("=" in text or ":" in text):  # every NAME=value / NAME: value has one
            text = sub(_ASSIGNMENT, lambda m: m.group(0) if m.group(4).startswith("<redacted") or _lists_keys(m)
                       or not is_secret_name(m.group(1)) else f"{m.group(1)}{m.group(2)}{m.group(3)}{REDACTED}", text)
        if stem and "-" in text:  # every --name value has one
            text = sub(_CLI_SECRET, lambda m: m.group(0) if m.group(3).startswith("<redacted") or not is_secret_name(m.group(2))
                       else m.group(1) + REDACTED, text)
        for literal, rx in _TOKENS:
            if _may_hold(literal, text):
                text = sub(rx, REDACTED, text)
        if self.redact_ips:
            text = sub(_IPV4, lambda m: self.mask_ip(m.group(1)), text)
        self.count += n
        return text

    def mask_ip(self, ip: str) -> str:
        first = ip.split(".", 1)[0]
        if ip == "0.0.0.0" or first in ("127", "255") or ip.startswith("255."):
            return ip  # loopback, any-address and netmasks say nothing about the site
        if ip not in self.ip_map:
            n = len(self.ip_map) + 1
            self.ip_map[ip] = f"198.{18 + (n >> 16) % 2}.{(n >> 8) & 255}.{n & 255}"
        return self.ip_map[ip]

    def data(self, obj):
        """Redact every string inside a JSON-like structure (keys too)."""
        if isinstance(obj, str):
            return self.text(obj)
        if isinstance(obj, list):
            return [self.data(x) for x in obj]
        if isinstance(obj, dict):
            return {self.text(str(k)): self.data(v) for k, v in obj.items()}
        return obj

    def argv(self, argv: Iterable[str]):
        return [self.text(a) for a in argv]


def _scrub_text(text, redactor: "Redactor"):
    """A string redacted; a Text (a message with parameters, i18n_text) stays one: its parameters are redacted
    (its message is the doctor's own words), so it can still be worded in any language."""
    from .i18n_text import Joined, Stored, Text

    if not isinstance(text, Text) or not text:
        return redactor.text(text) if isinstance(text, str) else text
    shown = redactor.text(str(text))
    if shown == str(text):
        return text
    if isinstance(text, Stored):
        return Stored(shown, report=text.report)
    if isinstance(text, Joined):
        return Joined([_scrub_text(p, redactor) for p in text.parts])
    return Text._make(text.msgid, {k: _scrub(v, redactor) for k, v in text.params.items()}, text.plural, text.n,
                      text.raw)


def _scrub(node, redactor: "Redactor"):
    if isinstance(node, str):
        return _scrub_text(node, redactor)
    if isinstance(node, dict):
        return {k: _scrub(v, redactor) for k, v in node.items()}
    if isinstance(node, list):
        return [_scrub(v, redactor) for v in node]
    return node


def redact_report(report, environ: Optional[Mapping[str, str]] = None, also: Iterable[Mapping[str, str]] = ()):
    """Scrub every string of a Report in place (findings and facts) before it is rendered.

    Findings quote what they read: a smoke child's stderr, a log line, a tool's output. Any of
    those can carry a token or a password, and reports are pasted into tickets and CI logs.
    Structure is kept (only string values change), so JSON stays JSON. Idempotent."""
    if getattr(report, "_redacted", False):
        return report
    import os

    redactor = Redactor(env=os.environ if environ is None else environ, also=also)
    for f in report.findings:
        f.title = _scrub_text(f.title, redactor)
        f.summary = _scrub_text(f.summary, redactor)
        f.evidence = _scrub(f.evidence, redactor)
        f.fix = [_scrub_text(step, redactor) for step in f.fix]
        f.alternatives = _scrub(f.alternatives, redactor)
    report.facts = _scrub(report.facts, redactor)
    report._redacted = True
    return report
