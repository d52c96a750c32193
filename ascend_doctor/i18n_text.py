"""Texts made now, worded later in the language asked: an English string that remembers its message.

A check, a probe or the planner writes what it has to say once, in English, and it is shown later (a terminal in
Chinese, a JSON report, another node's aggregate). `Text` serves both: it *is* the English string (facts, JSON,
comparisons and older code see a plain str), and `localized()` formats its message id again in the current
language, its parameters localized too (a Text inside a Text: "is {kind}, expected {what}" with kind "a string").

    why = Text(N_("is {value}, outside the port range 1-65535"), value=n)
    str(why)          # 'is 70000, outside the port range 1-65535'
    localized(why)    # '为 70000，超出端口范围 1-65535' in zh

Mark the message id with N_() where it is written (the catalog extractor finds it there). The message is
always formatted, so a literal brace is written twice ("an object {{...}}"), as in any str.format text.

While checks and the planner run (`i18n.deferred()`), `_()` returns a `Text` of the message itself whose
`.format(**params)` gives the formatted Text, `ngettext` a plural Text and `i18n.sentences` a `Text` of the
sentences joined: every human text of a finding and of the plan reaches the renderer as message ids with
parameters, and only the renderer (render/, the JSON writer) words it (`localized`). `to_i18n()` is what
report/2 stores of it and `from_i18n` builds it again, so a saved report is worded again exactly.

A fact read back from a saved report is a plain str; localized() words it again through the phrase templates
(ascend_doctor/phrases.py): the reader of report/1 files and of facts only.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from .i18n import get_lang, is_deferred, translate, translate_plural


def _rebuild(cls, state: dict) -> "Text":
    return from_i18n(state) if cls is Text else cls._from_state(state)


def _english(template: str, params: Dict[str, Any], raw: bool) -> str:
    return template if raw else template.format(**params)


class Text(str):
    """The English text of `msgid` with `params`; localized() gives it in the current language.

    `plural`/`n`: the message has a plural form (ngettext); `raw`: the message is shown as written, not formatted
    (what `_()` returned before any `.format`)."""

    msgid: str
    params: Dict[str, Any]
    plural: Optional[str] = None
    n: int = 1
    raw: bool = False

    def __new__(cls, msgid: str, **params: Any) -> "Text":
        return cls._make(msgid, params)

    @classmethod
    def _make(cls, msgid: str, params: Dict[str, Any], plural: Optional[str] = None, n: int = 1,
              raw: bool = False) -> "Text":
        template = msgid if plural is None or n == 1 else plural
        self = str.__new__(cls, _english(template, params, raw))
        self.msgid, self.params, self.plural, self.n, self.raw = msgid, params, plural, n, raw
        return self

    def format(self, *args: Any, **params: Any) -> Any:  # type: ignore[override]
        """A message not yet formatted (what `_()` gives while wording is deferred): the Text of it formatted."""
        if not self.raw or args:
            return str.format(str(self), *args, **params)
        return Text._make(self.msgid, params, self.plural, self.n)

    def join(self, parts: Any) -> Any:  # type: ignore[override]
        """`_("; ").join(parts)` while wording is deferred: the parts joined by this separator, each worded later."""
        if not self.raw or self.plural is not None:
            return str.join(self, parts)
        return Joined(list(parts), self)

    def __reduce__(self):  # pickled through worker processes as its message, not as a bare str
        return _rebuild, (Text, self.to_i18n())

    def localized(self) -> str:
        # only parameters that are Texts themselves are words to translate; the rest is data (paths, values)
        template = translate(self.msgid) if self.plural is None else translate_plural(self.msgid, self.plural, self.n)
        if self.raw:
            return template
        zh = get_lang() == "zh"
        return template.format(**{k: worded(v) if isinstance(v, (Text, list)) else (token_list(v) if zh else v)
                                  for k, v in self.params.items()})

    def to_i18n(self) -> Dict[str, Any]:
        """What report/2 keeps of this text: {"id", "params"} (+ "plural", "n"), parameters that are texts nested
        the same way, data as JSON values; a message shown as written (what `_()` gave, never formatted) has no
        "params"."""
        out: Dict[str, Any] = {"id": self.msgid}
        if not self.raw:
            out["params"] = {k: _param_json(v) for k, v in self.params.items()}
        if self.plural is not None:
            out["plural"], out["n"] = self.plural, self.n
        return out


class Joined(Text):
    """Texts said as one: joined by `sep` (a separator message such as "; ", or a plain string), else whole
    sentences (each one message): a space between them in English, none in Chinese (i18n.sentences while wording
    is deferred)."""

    parts: List[Any]
    sep: Any = None

    def __new__(cls, parts: List[Any], sep: Any = None) -> "Joined":
        return cls._from_state({}, parts, sep)

    @classmethod
    def _from_state(cls, state: dict, parts: Optional[List[Any]] = None, sep: Any = None) -> "Joined":
        if parts is None:
            parts, sep = [from_i18n(p) for p in state["join"]], from_i18n(state.get("sep"))
        self = str.__new__(cls, (" " if sep is None else str(sep)).join(str(p) for p in parts))
        self.msgid, self.params, self.plural, self.n, self.raw = "", {}, None, 1, True
        self.parts, self.sep = parts, sep
        return self

    def localized(self) -> str:
        if self.sep is None:
            sep = "" if get_lang() == "zh" else " "
        else:
            sep = self.sep.localized() if isinstance(self.sep, Text) else str(self.sep)
        return sep.join(str(worded(p)) for p in self.parts)

    def to_i18n(self) -> Dict[str, Any]:
        out = {"join": [_param_json(p) for p in self.parts]}
        if self.sep is not None:
            out["sep"] = _param_json(self.sep)
        return out


class Stored(Text):
    """An English text of another run (a report/1 file, a fact read back from JSON) with no message id kept:
    worded again from the phrase templates (phrases.reword_stored) where it is recognised, else shown as written."""

    report: bool = False  # a text of a report/1 finding (its sentences and fix lines), not a fact's phrase

    def __new__(cls, text: str, report: bool = False) -> "Stored":
        return cls._from_state({"text": text, "stored": "report" if report else "phrase"})

    @classmethod
    def _from_state(cls, state: dict) -> "Stored":
        self = str.__new__(cls, state["text"])
        self.msgid, self.params, self.plural, self.n, self.raw = str(state["text"]), {}, None, 1, True
        self.report = state.get("stored") == "report"
        return self

    def localized(self) -> str:
        if get_lang() == "en":
            return str(self)
        from .phrases import reword, reword_stored  # the templates and their patterns: only another language

        return (reword_stored if self.report else reword)(str(self))

    def to_i18n(self) -> Dict[str, Any]:
        return {"text": str(self), "stored": "report" if self.report else "phrase"}


class Bilingual(Text):
    """A text written in both languages where it is kept (the knowledge base's `advice` and `advice_zh`): its English,
    and its Chinese shown in Chinese."""

    zh: str = ""

    def __new__(cls, en: str, zh: str) -> "Bilingual":
        return cls._from_state({"text": en, "zh": zh})

    @classmethod
    def _from_state(cls, state: dict) -> "Bilingual":
        self = str.__new__(cls, str(state["text"]))
        self.msgid, self.params, self.plural, self.n, self.raw = str(state["text"]), {}, None, 1, True
        self.zh = str(state.get("zh") or "")
        return self

    def localized(self) -> str:
        return self.zh if get_lang() == "zh" and self.zh else str(self)

    def to_i18n(self) -> Dict[str, Any]:
        return {"text": str(self), "zh": self.zh}


def _param_json(value: Any) -> Any:
    if isinstance(value, Text):
        return value.to_i18n()
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_param_json(v) for v in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


def to_i18n(value: Any) -> Dict[str, Any]:
    """The report/2 entry of a text: a Text's message and parameters; a plain string (words nobody marked) as
    {"text": ...}, shown as written in every language."""
    if isinstance(value, Text):
        return value.to_i18n()
    return {"text": "" if value is None else str(value)}


def entry(value: Any) -> Any:
    """A text's report/2 entry beside its worded field: to_i18n, but None for words nobody marked (a command): the
    worded field itself says it, in every language."""
    return value.to_i18n() if isinstance(value, Text) else None


def from_entry(value: Any, shown: str) -> Any:
    """The text of a report/2 entry (`entry`), `shown` (its worded field) when the entry is None."""
    return shown if value is None else from_i18n(value)


_TOKEN_LIST = re.compile(r"[^\s,，、]+(?:, [^\s,，、]+)+")


def token_list(value: Any) -> Any:
    """A list of tokens in a Chinese sentence ("7.8, 8.2, 8.3", "ASCEND_OPP_PATH, LD_LIBRARY_PATH") with the
    enumeration comma 、 as the vendor's Chinese writes it; any other value as it is. Chinese only (the caller
    asks): English keeps ', '."""
    if isinstance(value, str) and not isinstance(value, Text) and _TOKEN_LIST.fullmatch(value):
        return value.replace(", ", "、")
    return value


def join(sep: Any, parts: Any) -> Any:
    """`sep.join(parts)` that keeps the parts' messages when any is a Text (a plain str otherwise)."""
    parts = list(parts)
    if any(isinstance(p, Text) for p in parts):
        return Joined(parts, sep)
    return str(sep).join(parts)


def from_i18n(entry: Any) -> Any:
    """The Text a report/2 entry (to_i18n) describes; a plain value as it is. Bad entries raise ValueError."""
    if isinstance(entry, list):
        return [from_i18n(e) for e in entry]
    if not isinstance(entry, dict):
        return entry
    if "join" in entry:
        if not isinstance(entry["join"], list):
            raise ValueError("an i18n entry's 'join' is not a list")
        return Joined._from_state(entry)
    if "text" in entry:
        if "zh" in entry:
            return Bilingual._from_state(entry)
        return Stored._from_state(entry) if entry.get("stored") else str(entry["text"])
    msgid, params = entry.get("id"), entry.get("params", {})
    raw = "params" not in entry
    if not isinstance(msgid, str) or not isinstance(params, dict):
        raise ValueError(f"an i18n entry without a message id and params: {entry!r}"[:200])
    plural = entry.get("plural")
    try:
        return Text._make(msgid, {str(k): from_i18n(v) for k, v in params.items()},
                          None if plural is None else str(plural), int(entry.get("n", 1)), raw)
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"i18n entry {msgid!r}: its params do not fill the message ({exc})"[:200]) from None


def localized(value: Any) -> Any:
    """`value` in the current language: a Text formatted again (a list: each item); a plain string (a fact read
    back from a saved report's JSON) looked up as a message, else worded again from the phrase template it
    matches (phrases.reword); anything else unchanged. English returns its input (a plain str).

    While wording is deferred (checks running), a Text stays as it is and a plain string becomes `Stored`: the
    renderer words it."""
    if is_deferred():
        if isinstance(value, Text) or not isinstance(value, str) or not value:
            return value
        return Stored(value)
    if isinstance(value, Text):
        return value.localized()
    if isinstance(value, list):
        return [localized(v) for v in value]
    if isinstance(value, str) and value and get_lang() != "en":
        from .phrases import reword  # the templates and their patterns: only a run in another language

        return reword(value)
    return value


def worded(value: Any) -> Any:
    """`value` for a reader in the current language: Texts worded (in dicts and lists too), the rest as is."""
    if isinstance(value, Text):
        return value.localized()
    if isinstance(value, list):
        return [worded(v) for v in value]
    if isinstance(value, tuple):
        return tuple(worded(v) for v in value)
    if isinstance(value, dict):
        return {(worded(k) if isinstance(k, Text) else k): worded(v) for k, v in value.items()}
    return value


def error_text(exc: BaseException) -> Any:
    """The message of a host error: its Text when it was raised with one (so it can be shown translated), else
    the exception's English string."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Text) else str(exc)


def has_text(value: Any) -> bool:
    """Whether `value` (a dict, list or tuple of data) holds a Text anywhere."""
    if isinstance(value, Text):
        return True
    if isinstance(value, dict):
        return any(has_text(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(has_text(v) for v in value)
    return False


def marked(value: Any) -> Any:
    """A value of data with each Text in it as {"i18n": its entry}, the data around it as it is (a finding's
    evidence, a triage root cause in a JSON document); `unmarked` reads it back."""
    if isinstance(value, Text):
        return {"i18n": value.to_i18n()}
    if isinstance(value, dict):
        return {k: marked(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [marked(v) for v in value]
    return value


def unmarked(value: Any) -> Any:
    """`marked`'s value back, each {"i18n": entry} the Text it describes (from_i18n: bad entries raise ValueError)."""
    if isinstance(value, dict):
        if set(value) == {"i18n"}:
            return from_i18n(value["i18n"])
        return {k: unmarked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unmarked(v) for v in value]
    return value


def texts_at(value: Any, at: str = "") -> Dict[str, Any]:
    """Where the Texts in `value` (dicts and lists of data: a report's facts) are, as JSON Pointers (RFC 6901:
    "/cann/installs/0/errors/1"), each with its report/2 entry: the facts stay English strings and this says
    which messages they were, so a saved report's facts are worded again exactly (`with_texts`)."""
    if isinstance(value, Text):
        return {at: value.to_i18n()}
    out: Dict[str, Any] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(texts_at(v, f"{at}/{str(k).replace('~', '~0').replace('/', '~1')}"))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            out.update(texts_at(v, f"{at}/{i}"))
    return out


def with_texts(value: Any, texts: Any) -> Any:
    """`value` (parsed JSON) with the Texts `texts_at` found put back where they were: each only where the string
    there is the entry's English (a text edited since, or a pointer that names nothing, stays as it is). A copy
    of the dicts and lists on each path; `texts` that is not an object of entries raises ValueError."""
    if not texts:
        return value
    if not isinstance(texts, dict):
        raise ValueError("field 'i18n.facts' is not an object of JSON Pointers")
    for pointer, entry in texts.items():
        keys = [k.replace("~1", "/").replace("~0", "~") for k in str(pointer).split("/")[1:]]
        if keys:
            value = _put(value, keys, entry)
    return value


def _put(holder: Any, keys: List[str], entry: Any) -> Any:
    key, rest = keys[0], keys[1:]
    if isinstance(holder, dict) and key in holder:
        at: Any = key
    elif isinstance(holder, list) and key.isdigit() and int(key) < len(holder):
        at = int(key)
    else:
        return holder
    current = holder[at]
    if rest:
        new = _put(current, rest, entry)
    elif isinstance(current, str) and not isinstance(current, Text):
        new = from_i18n(entry)
        if str(new) != current:  # not the text it was made from: kept as written
            return holder
    else:
        return holder
    if new is current:
        return holder
    copy = dict(holder) if isinstance(holder, dict) else list(holder)
    copy[at] = new
    return copy
