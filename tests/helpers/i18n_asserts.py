"""Assert what the doctor said by its message ids and parameters, not by its English sentences (issue 23 item 1).

A finding's title, summary, fix steps, evidence and alternatives, a plan step, a fact phrase: each made while the
wording is deferred (`i18n.deferred()`: doctor.evaluate, the planner, preflight, a triage root cause) is an
`i18n_text.Text` that keeps its message id (`msgid`, the catalog's English template) and `params`. A test asks

    f = deferred(check_cann_driver, ctx)                      # a check called directly: words deferred
    assert_msg(f.summary, "{name} is not set", name="ASCEND_AICPU_PATH")
    assert "Ascend HDK {hdk}" not in msg_ids(f)               # ids anywhere in a finding (or a list, a JSON one)

so it holds whatever the sentence says in any language and fails when the message or one of its values changes.
A test of a rendering (layout, wrapping, a golden file, a language's wording) keeps its sentences: those are the
golden renderings (tests/test_prose_asserts.py lists their files).
"""

from typing import Any, Iterator, List, Optional, Set

from ascend_doctor import i18n
from ascend_doctor.findings import Finding
from ascend_doctor.i18n_text import Joined, Text, from_i18n


def deferred(fn, *args, **kw):
    """`fn(*args, **kw)` with its words deferred, as doctor.evaluate runs a check: its texts are Texts."""
    with i18n.deferred():
        return fn(*args, **kw)


def _walk(value: Any) -> Iterator[Text]:
    if isinstance(value, Joined):
        for part in value.parts:
            yield from _walk(part)
        if isinstance(value.sep, Text):
            yield from _walk(value.sep)
        return
    if isinstance(value, Text):
        yield value
        for param in value.params.values():
            yield from _walk(param)
        return
    if isinstance(value, Finding):
        for part in (value.title, value.summary, value.fix, value.evidence, value.alternatives):
            yield from _walk(part)
        return
    if isinstance(value, dict):
        if "i18n" in value and "id" in value and "status" in value:  # a finding of a JSON report (report/2)
            yield from _walk(Finding.from_json(value))
            return
        if "id" in value and ("params" in value or len(value) == 1) and isinstance(value["id"], str):
            yield from _walk(from_i18n(value))  # an i18n entry {"id", "params"}
            return
        for k, v in value.items():
            yield from _walk(k)
            yield from _walk(v)
        return
    if isinstance(value, (list, tuple, set)):
        for v in value:
            yield from _walk(v)
        return
    for name in ("do", "why", "steps", "title", "summary"):  # a plan step or plan-like record
        if hasattr(value, name) and not isinstance(value, str):
            yield from _walk(getattr(value, name))


def messages(value: Any) -> List[Text]:
    """Every message in `value` (a Text and the Texts in its parameters and parts, a Finding, a finding of a
    JSON report, an i18n entry, a plan step, lists and dicts of them), in order."""
    return list(_walk(value))


def msg_ids(value: Any) -> Set[str]:
    """The message ids of every message in `value` (see `messages`)."""
    return {t.msgid for t in messages(value) if t.msgid}


def _matches(text: Text, msgid: str, params: dict) -> bool:
    if text.msgid != msgid:
        return False
    return all(k in text.params and (text.params[k] == v or str(text.params[k]) == str(v)) for k, v in params.items())


def find_msg(value: Any, msgid: str, /, **params: Any) -> Optional[Text]:
    """The first message of `value` with this id whose parameters include `params` (compared as values, or as
    their English strings), else None."""
    return next((t for t in _walk(value) if _matches(t, msgid, params)), None)


def has_msg(value: Any, msgid: str, /, **params: Any) -> bool:
    return find_msg(value, msgid, **params) is not None


def assert_msg(value: Any, msgid: str, /, **params: Any) -> Text:
    """The message of `value` with id `msgid` and (at least) these parameters; fails naming what was there."""
    found = find_msg(value, msgid, **params)
    if found is None:
        there = [(t.msgid, t.params) for t in _walk(value) if t.msgid]
        if not there and isinstance(value, str):
            raise AssertionError(f"{value!r} carries no message id (made outside i18n.deferred()?)")
        raise AssertionError(f"no message {msgid!r} with {params!r} in: {there!r}"[:2000])
    return found


def deferring(fn):
    """`fn` that runs with its words deferred (see `deferred`): a check function as doctor.evaluate calls it."""
    def call(*args, **kw):
        return deferred(fn, *args, **kw)
    call.__name__, call.__doc__, call.__wrapped__ = fn.__name__, fn.__doc__, fn
    return call


def assert_is_msg(value: Any, msgid: str, /, **params: Any) -> Text:
    """`value` is itself the message `msgid` with exactly these parameters (what `value == "<sentence>"` said)."""
    assert isinstance(value, Text), f"{value!r} carries no message id (made outside i18n.deferred()?)"
    got = {k: str(v) for k, v in value.params.items()}
    assert (value.msgid, got) == (msgid, {k: str(v) for k, v in params.items()}), (value.msgid, value.params)
    return value


def _known(msgid: str) -> bool:
    """Whether `msgid` is a message of the catalogs (the Chinese one translates every message the code marks)."""
    from ascend_doctor.catalog import read_po_dir

    global _MSGIDS
    if _MSGIDS is None:
        import os

        _MSGIDS = set(read_po_dir(os.path.join(os.path.dirname(i18n.__file__), "locale", "zh_CN"))._table)
    return msgid in _MSGIDS


_MSGIDS = None


def shown_pattern(msgid: str, /, **params: Any) -> "re.Pattern":
    """The message `msgid` as a rendering in the current language shows it: its parameters given here as their
    values (worded), any other placeholder as any text (up to 400 characters); a space as any white space (a
    wrapped line)."""
    import re
    import string

    from ascend_doctor.i18n import translate
    from ascend_doctor.i18n_text import worded

    assert _known(msgid), f"{msgid!r} is not a message of the catalogs"
    def words(text: str) -> str:  # a space may be where a long line was wrapped
        return r"\s+".join(re.escape(w) for w in re.split(r"\s+", text))

    out = []
    for literal, field, spec, conv in string.Formatter().parse(translate(msgid)):
        out.append(words(literal))
        if field is None:
            continue
        if field in params:
            out.append(words(format(str(worded(params[field])), spec or "")))
        else:
            out.append(r"[\s\S]{0,400}?")
    return re.compile("".join(out))


def shows(output: str, msgid: str, /, **params: Any) -> bool:
    """Whether a rendered `output` (a text report, Markdown, HTML after unescaping) says the message `msgid` in the
    current language with these parameters (the others any text): a test of what a rendering says
    that reads the message's id, not its English sentence."""
    return shown_pattern(msgid, **params).search(output) is not None


def assert_shows(output: str, msgid: str, /, **params: Any) -> None:
    assert shows(output, msgid, **params), (f"the output does not say {msgid!r} with {params!r} "
                                             f"(as {shown_pattern(msgid, **params).pattern!r}):\n{output[:1500]}")


def assert_rewords_both_ways(reword, en: Any, zh: Any, *args: Any) -> None:
    """A saved document worded again: `reword(en, *args)` in a Chinese run is exactly the Chinese run's `zh`, and
    `reword(zh, *args)` in an English run is exactly `en`."""
    i18n.set_lang("zh")
    try:
        assert reword(en, *args) == zh
    finally:
        i18n.set_lang("en")
    assert reword(zh, *args) == en
