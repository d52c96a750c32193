"""Texts made now, shown later in the run's language: an English string that remembers its message.

A rank-table problem is written once, when the table is validated, and lands in two places: the facts of a
report (which stay English: a saved report is re-judged later) and what a user reads (in the chosen
language). `Text` serves both: it *is* the English string (JSON, comparisons, older code see a plain str),
and `localized()` formats its message id again in the current language, its parameters localized too
(a Text inside a Text: "is {kind}, expected {what}" with kind "a string").

    why = Text(N_("is {value}, outside the port range 1-65535"), value=n)
    str(why)          # 'is 70000, outside the port range 1-65535'
    localized(why)    # '为 70000，超出端口范围 1-65535' in zh

Mark the message id with N_() where it is written (the catalog extractor finds it there). The message is
always formatted, so a literal brace is written twice ("an object {{...}}"), as in any str.format text.

A fact read back from a saved report is a plain str: localized() matches it against the registered phrase
templates (ascend_doctor/phrases.py, one regular expression derived from each template) and words it again, so
a reloaded report reads as the first run did.
"""

from __future__ import annotations

from typing import Any

from .i18n import _, get_lang


def _rebuild(msgid: str, params: dict) -> "Text":
    return Text(msgid, **params)


class Text(str):
    """The English text of `msgid` with `params`; localized() gives it in the current language."""

    def __new__(cls, msgid: str, **params: Any) -> "Text":
        self = super().__new__(cls, msgid.format(**params))
        self.msgid = msgid
        self.params = params
        return self

    def __reduce__(self):  # pickled through worker processes as its message, not as a bare str
        return _rebuild, (self.msgid, self.params)

    def localized(self) -> str:
        # only parameters that are Texts themselves are words to translate; the rest is data (paths, values)
        return _(self.msgid).format(**{k: v.localized() if isinstance(v, Text) else v for k, v in self.params.items()})


def localized(value: Any) -> Any:
    """`value` in the current language: a Text formatted again; a plain string (a fact read back from a saved
    report's JSON) looked up as a message, else worded again from the phrase template it matches
    (phrases.reword); anything else unchanged. English returns its input."""
    if isinstance(value, Text):
        return value.localized()
    if isinstance(value, str) and value and get_lang() != "en":
        from .phrases import reword  # the templates and their patterns: only a run in another language

        return reword(value)
    return value
