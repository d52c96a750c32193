"""The reasons other libraries give, in the run's language: an OSError's strerror, a JSON parse error.

A one-line error names file, field and expectation in the doctor's words, and often ends with the reason the
OS or the JSON reader gave ("(Permission denied)", "Expecting value"). Those are English from the C library and
the json module; the common ones are messages of the catalog (errors_host.po), so a Chinese run says them in
Chinese too. English gets the library's text unchanged; a reason not listed here is shown as the library wrote it.

`os_reason(exc)` and `json_reason(exc)` are for the code that words an error now; `os_text(exc)` for a reason
kept in a fact (an i18n_text.Text: English, shown translated); `i18n.lookup(exc.strerror)` does the same for a
caller that already holds the text.
"""

from __future__ import annotations

from .i18n import N_, _, lookup
from .i18n_text import Text

# What glibc's strerror says for the errors a doctor meets reading bundles and writing reports.
OS_REASONS = (
    N_("No such file or directory"),
    N_("Permission denied"),
    N_("Is a directory"),
    N_("Not a directory"),
    N_("No space left on device"),
    N_("Read-only file system"),
    N_("Disk quota exceeded"),
    N_("File exists"),
    N_("Too many levels of symbolic links"),
    N_("File name too long"),
    N_("Input/output error"),
    N_("Operation not permitted"),
    N_("Device or resource busy"),
    N_("No such device or address"),
    N_("Text file busy"),
    N_("not a regular file"),  # the doctor's own (data.load_json_file refuses FIFOs and devices)
)

# json.JSONDecodeError.msg (the message without its position: the doctor names line and column itself).
JSON_REASONS = (
    N_("Expecting value"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ',' delimiter"),
    N_("Expecting ':' delimiter"),
    N_("Extra data"),
    N_("Unterminated string starting at"),
    N_("Invalid control character at"),
    N_("Invalid \\escape"),  # the C scanner's; the pure-Python one adds the character (json_reason)
    N_("Invalid \\uXXXX escape"),
    N_("Illegal trailing comma before end of object"),  # Python 3.13+
    N_("Illegal trailing comma before end of array"),
)


def os_reason(exc: BaseException) -> str:
    """An OSError's reason (its strerror, else its text) in the run's language."""
    text = getattr(exc, "strerror", None) or exc
    return lookup(str(text))


def os_text(exc: BaseException):
    """An OSError's reason for a fact: a Text when it is one of OS_REASONS (shown translated), else the English."""
    text = str(getattr(exc, "strerror", None) or exc)
    return Text(text) if text in OS_REASONS else text


def json_reason(exc) -> str:
    """A JSONDecodeError's message (without position) in the run's language."""
    msg = str(getattr(exc, "msg", exc))
    if msg.startswith("Invalid \\escape: "):  # the one message json words with a value
        return _("Invalid \\escape: {char}").format(char=msg[len("Invalid \\escape: "):])
    return lookup(msg)
