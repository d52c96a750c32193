"""Pieces every subcommand shares: opening a bundle, checking seconds, output writing, colour and progress."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterable, Union

from ..errors import CliError
from ..i18n import _
from ..lazyre import lazy_compile


@contextlib.contextmanager
def opened_bundle(path: str):
    """The bundle's Host for the `with` body; an unreadable or malformed bundle (SnapshotError, also one met
    while the body reads it) is a one-line CliError, exit 2."""
    from ..bundle import open_bundle
    from ..host import SnapshotError

    try:
        with open_bundle(path) as host:
            yield host
    except SnapshotError as exc:
        raise CliError(str(exc)) from None


def require_positive_seconds(flag: str, value: float) -> float:
    """`value` when it is a finite number of seconds above 0; else a one-line CliError naming `flag`."""
    if not value > 0 or value == float("inf"):  # also NaN, which compares false to everything
        raise CliError(_("{flag} must be a positive number of seconds, got {value}").format(flag=flag, value=value))
    return value


def write_output(text: Union[str, Iterable[str]], path: str = None) -> None:
    """Report to stdout, or to --output FILE written atomically (never half a file). `text` may be pieces to write
    one after the other (render.triage_report.triage_pieces: a large JSON report is never held whole)."""
    texts = map(_without_surrogates, [text] if isinstance(text, str) else text)
    if not path or path == "-":
        for piece in texts:
            try:
                sys.stdout.write(piece)
            except UnicodeEncodeError:  # a terminal that is not UTF-8: escape rather than die on the last step
                sys.stdout.flush()
                sys.stdout.buffer.write(piece.encode(sys.stdout.encoding or "utf-8", "backslashreplace"))
        sys.stdout.flush()
        return
    if os.path.isdir(path):
        raise CliError(_("--output {path}: is a directory, expected a file name (e.g. {example})").format(
            path=path, example=os.path.join(path, "report.txt")))
    from ..atomic import write_atomic  # tempfile and random: only when writing a file, not for stdout

    try:
        write_atomic(path, texts)
    except OSError as exc:
        where = os.path.dirname(os.path.abspath(path))
        raise CliError(_("--output {path}: cannot write in {directory} ({reason})").format(
            path=path, directory=where, reason=exc.strerror or exc)) from None


_SURROGATE = lazy_compile("[\ud800-\udfff]")


def _without_surrogates(text: str) -> str:
    """Undecodable bytes in environment values or file names reach Python as lone surrogates, which
    no UTF-8 writer accepts and strict JSON readers reject: they become U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)


def use_color(stream=None, disabled: bool = False) -> bool:
    """Whether to colour what goes to `stream` (default: sys.stdout as it is now, not as it was at import: a
    caller of main() may have redirected it since, and the stream seen then may be closed)."""
    if disabled or os.environ.get("NO_COLOR") is not None or os.environ.get("TERM") == "dumb":
        return False
    stream = sys.stdout if stream is None else stream
    return hasattr(stream, "isatty") and stream.isatty()


def report_color(args) -> bool:
    """Colour for a text report written to a terminal: not with --format other than text, --output,
    --no-color, NO_COLOR or TERM=dumb."""
    return args.format == "text" and not args.output and use_color(disabled=args.no_color)


class Progress:
    """Progress on stderr: one rewritten line on a TTY, nothing otherwise (logs stay clean)."""

    def __init__(self, enabled: bool = None):
        self.tty = sys.stderr.isatty() if enabled is None else enabled
        self._last = 0

    def __call__(self, message: str) -> None:
        self.line(_("  checking {what}").format(what=message))

    def line(self, text: str) -> None:
        """Rewrite the progress line with `text`."""
        if not self.tty:
            return
        from ..render.layout import clip, display_width

        text = clip(text, 78)
        used = display_width(text)
        sys.stderr.write("\r" + text + " " * max(0, self._last - used))
        sys.stderr.flush()
        self._last = used

    def done(self) -> None:
        if self.tty and self._last:
            sys.stderr.write("\r" + " " * self._last + "\r")
            sys.stderr.flush()


def add_python_argument(p) -> None:
    p.add_argument("--python", metavar="PATH",
                   help=_("judge this interpreter (e.g. /opt/conda/envs/ms/bin/python): its version, packages and "
                           "MindSpore, and run the smoke child with it. Default: an activated venv/conda env that is "
                           "not the doctor's own, else the doctor's interpreter; the report header says which"))


def live_host(args):
    """This machine, judging the interpreter --python names (one-line error, exit 2, when it cannot be asked)."""
    from ..host import LiveHost
    from ..i18n_text import localized

    requested = getattr(args, "python", None)
    host = LiveHost(python=requested)
    if requested:
        info = host.python
        if info.error:
            raise CliError("--python " + localized(info.error))
    return host


def reject_python_with_bundle(args) -> None:
    if getattr(args, "python", None) and getattr(args, "bundle", None):
        raise CliError(_("--python judges an interpreter on this machine; a --bundle already records the one it "
                         "was collected with (collect --python PATH chooses it)"))


def add_kb_option(parser) -> None:
    parser.add_argument("--kb", action="append", default=[], metavar="FILE",
                        help=_("more signatures from a knowledge-base part file (schema ascend-doctor.kb-part/1, see "
                                "data/kb_part.schema.json); repeatable; also $ASCEND_DOCTOR_KB (os.pathsep-separated)"))


def load_kb(extra=()):
    """The knowledge base with the user's --kb files, read now: a bad entry is one line on stderr each, exit 2."""
    from ..data import DataError
    from ..kb.load import KbError, load_knowledge_base

    try:
        kb = load_knowledge_base(extra=list(extra or ()))
        kb.signatures  # the parts and the user's files are read on first use: read them here
        return kb
    except KbError as exc:
        for line in exc.errors[:-1]:
            from ..cli import error_line

            print(error_line(" ".join(line.split())), file=sys.stderr)
        raise CliError(exc.errors[-1]) from None
    except DataError as exc:
        raise CliError(str(exc)) from None
