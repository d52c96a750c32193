"""Command line: `ascend-doctor [check] ...` and the other subcommands.

The CLI alone owns exit codes and streams: the report goes to stdout (or
--output), progress and logs to stderr.

Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it;
2 the doctor could not run (bad arguments, a selection that matches no check, input that is not
what it claims, a missing dependency), with a one-line reason naming file, field and expectation.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import List, Optional

from . import __version__
# Re-exported: older code imports them from here.
from .errors import EXIT_CANNOT_RUN, EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_PIPE, CliError  # noqa: F401
from .errors import RUNTIME_DEPENDENCIES, missing_dependency  # noqa: F401
from .i18n import N_

# Subcommands (modules under ascend_doctor.commands) in the order --help lists them, with their one-line help
# (marked here, translated where the parser is built: _(COMMANDS[name])).
# Only the module of the command being run is imported: a pre-flight should not pay for the others.
COMMANDS = {
    "check": N_("diagnose this machine or a bundle (the default command)"),
    "matrix": N_("show the MindSpore/CANN/driver/firmware compatibility matrix, check a planned install against it, or update it"),
    "smoke": N_("train a tiny net in GRAPH mode on this machine's device and say where it breaks"),
    "rank-table": N_("validate a rank table (RANK_TABLE_FILE) and, optionally, a node against it"),
    "triage": N_("name the known problems in logs, with cause and fix"),
    "kb": N_("look up the knowledge base (show ID, search WORDS, match log lines)"),
    "collect": N_("write a redacted snapshot (.tar.gz) of this machine for support"),
    "preflight": N_("quick checks before a training job, on every node (writes a per-node report)"),
    "aggregate": N_("merge per-node preflight reports into one verdict (failing nodes, skew)"),
    "fix": N_("write the report's fixes as one bash script to review and run yourself (--script)"),
    "explain": N_("explain a check id, pitfall, knowledge-base signature, ascend-fd id, error code (CANN, AscendCL, DCMI, torch_npu ERR) or HCCL variable (offline)"),
}


def _help_width() -> int:
    """The width argparse's formatter would get from shutil.get_terminal_size() (COLUMNS, the terminal, 80),
    minus its 2-column margin, found without importing shutil (and with it bz2 and lzma) at every start."""
    import os

    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, like every other could-not-run
        from .i18n import _

        self.exit(EXIT_CANNOT_RUN, _("{prog}: error: {message} (see --help)").format(
            prog=self.prog, message=_argparse_message(message)) + "\n")

    def _get_formatter(self):  # argparse builds one per add_argument; the default one imports shutil
        from .i18n import get_lang

        if get_lang() != "en" and self.formatter_class is argparse.HelpFormatter:
            return _TranslatedHelpFormatter(prog=self.prog, width=_help_width())
        return self.formatter_class(prog=self.prog, width=_help_width())


# argparse's own words in --help (its gettext domain has no Chinese): what argparse writes -> our message.
# Translated at formatting time, so English help is argparse's, untouched.
ARGPARSE_WORDS = {
    "usage: ": N_("usage: "),
    "positional arguments": N_("positional arguments"),
    "options": N_("options"),
    "optional arguments": N_("optional arguments"),  # argparse's title before Python 3.10
    "show this help message and exit": N_("show this help message and exit"),
    "show program's version number and exit": N_("show program's version number and exit"),
}


class _TranslatedHelpFormatter(argparse.HelpFormatter):
    """--help in a language other than English: argparse's own words (usage prefix, section titles, the -h and
    --version help) from our catalog, section titles ending in a full-width colon when Chinese, and Chinese
    text wrapped by display width (a Chinese character takes two columns; argparse counts characters and
    breaks only at spaces)."""

    def _format_usage(self, usage, actions, groups, prefix):
        if prefix is not None:  # '' when argparse builds a subcommand's prog
            return super()._format_usage(usage, actions, groups, prefix)
        from .i18n import _
        from .render.layout import display_width

        word = _(ARGPARSE_WORDS["usage: "])
        # argparse indents wrapped usage lines by len(prefix): lay it out with a stand-in as wide as the word.
        stand_in = " " * display_width(word)
        text = super()._format_usage(usage, actions, groups, stand_in)
        return word + text[len(stand_in):]

    def start_section(self, heading):
        from .i18n import _

        if heading in ARGPARSE_WORDS:
            heading = _(ARGPARSE_WORDS[heading])
        super().start_section(heading)

    def _get_help_string(self, action):
        from .i18n import _

        text = action.help
        return _(ARGPARSE_WORDS[text]) if text in ARGPARSE_WORDS else text

    def _split_lines(self, text, width):
        from .render.layout import has_wide, wrap

        if not has_wide(text):
            return super()._split_lines(text, width)
        return wrap(self._whitespace_matcher.sub(" ", text).strip(), width)

    def _fill_text(self, text, width, indent):
        from .render.layout import has_wide, wrap

        if not has_wide(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(wrap(self._whitespace_matcher.sub(" ", text).strip(), width, indent))

    def format_help(self):
        import re

        from .render.layout import has_wide

        # "选项:" -> "选项：": a Chinese section title ends in a full-width colon
        return re.sub(r"^( *)(\S[^\n]*?):$", lambda m: m.group(1) + m.group(2) + ("：" if has_wide(m.group(2)) else ":"),
                      super().format_help(), flags=re.M)


def _argparse_message(message: str) -> str:
    """argparse's own error message in the current language for the common cases (a bad choice, a missing
    or unknown argument, a value of the wrong type, an option without its value); others as argparse says."""
    import re

    from .i18n import _, get_lang

    if get_lang() == "en":
        return message
    forms = (
        (r"argument (?P<arg>.+?): invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)$",
         _("argument {arg}: invalid choice: {value} (choose from {choices})")),
        (r"the following arguments are required: (?P<args>.+)$", _("the following arguments are required: {args}")),
        (r"unrecognized arguments: (?P<args>.+)$", _("unrecognized arguments: {args}")),
        (r"argument (?P<arg>.+?): invalid (?P<type>\w+) value: (?P<value>.+)$",
         _("argument {arg}: invalid {type} value: {value}")),
        (r"argument (?P<arg>.+?): expected one argument$", _("argument {arg}: expected one argument")),
        (r"argument (?P<arg>.+?): expected at least one argument$", _("argument {arg}: expected at least one argument")),
        (r"argument (?P<arg>.+?): not allowed with argument (?P<other>.+)$",
         _("argument {arg}: not allowed with argument {other}")),
        (r"one of the arguments (?P<args>.+) is required$", _("one of the arguments {args} is required")),
    )
    for pattern, text in forms:
        m = re.match(pattern, message)
        if m:
            return text.format(**m.groupdict())
    return message


def build_parser(selected: Optional[str] = None) -> argparse.ArgumentParser:
    """The parser; with `selected`, only that subcommand is registered and its module imported (main passes
    the command it was given: parsing it never needs the others, and each costs a parser to build)."""
    from .i18n import _

    parser = _Parser(
        prog="ascend-doctor",
        description=_("Diagnose the Huawei Ascend AI stack (NPU driver/firmware, CANN, HCCL, MindSpore; "
                      "MindSpore on CUDA too) and print how to fix what is wrong. "
                      "With no subcommand, runs `check`."),
        epilog=_("Exit codes: 0 healthy (nothing at or above --fail-on), 1 problems found, 2 could not run."),
    )
    parser.add_argument("--version", action="version", version=f"ascend-doctor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        if selected is None or name == selected:
            importlib.import_module(f".commands.{name.replace('-', '_')}", __package__).register(sub)
            _add_lang_option(sub.choices[name])
    return parser


LANG_HELP = N_("language of the output: zh or en (default: ASCEND_DOCTOR_LANG, else the locale: "
             "LC_ALL, LC_MESSAGES, LANG; zh_* -> zh)")


def _add_lang_option(parser: argparse.ArgumentParser) -> None:
    """--lang on a subcommand, and on each action of one that has actions (kb show|search|match)."""
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for action in actions:
        for child in set(action.choices.values()):
            _add_lang_option(child)
    if not actions:
        try:
            from .i18n import _

            parser.add_argument("--lang", choices=["zh", "en"], default=None, help=_(LANG_HELP))
        except argparse.ArgumentError:  # the command declares its own
            pass


def _choose_language(args) -> str:
    """Set the run's language from --lang / ASCEND_DOCTOR_LANG / the locale (a bad value: exit 2)."""
    from . import i18n

    try:
        lang = i18n.choose(getattr(args, "lang", None))
    except i18n.LanguageError as exc:  # said in English: the language is what could not be chosen
        raise CliError(str(exc)) from None
    i18n.set_lang(lang)
    args.lang = lang
    return lang


def _early_language(argv: List[str]) -> None:
    """The language for argparse's own errors, which come before the parsed --lang: the --lang/--lang=X of the
    command line, ASCEND_DOCTOR_LANG or the locale. A bad value is left for _choose_language to report."""
    from . import i18n

    flag = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            flag = argv[i + 1]
        elif arg.startswith("--lang="):
            flag = arg.split("=", 1)[1]
    try:
        lang = i18n.choose(flag)
    except i18n.LanguageError:
        return
    if lang != i18n.get_lang():
        i18n.set_lang(lang)


def _lang_last(argv: List[str]) -> List[str]:
    """`--lang X` / `--lang=X` moved after the other arguments (before a `--`): every subcommand, and each action
    of `kb`, takes it, but given before the subcommand or an action (`--lang zh triage DIR`, `kb --lang zh search
    超时`) a parser that does not define it there read it as the command or the action."""
    cut = argv.index("--") if "--" in argv else len(argv)
    head, lang, i = [], [], 0
    while i < cut:
        if argv[i] == "--lang" and i + 1 < cut:
            lang += argv[i:i + 2]
            i += 2
            continue
        (lang if argv[i].startswith("--lang=") else head).append(argv[i])
        i += 1
    return head + lang + argv[cut:]


def _with_default_command(argv: List[str]) -> List[str]:
    if not argv:
        return ["check"]
    first = argv[0]
    if first in ("-h", "--help", "--version"):
        return argv
    if first in COMMANDS:
        return _lang_last(argv)
    # `--lang zh --help`: the help of ascend-doctor itself, in that language (_early_language read --lang), not
    # check's help; the top-level parser has no --lang, so it is taken off
    rest = argv
    while rest and (rest[0] == "--lang" or rest[0].startswith("--lang=")):
        rest = rest[2:] if rest[0] == "--lang" else rest[1:]
    if rest and rest[0] in ("-h", "--help", "--version"):
        return rest
    if rest and rest[0] in COMMANDS and rest is not argv:
        return _lang_last(argv)
    if first.startswith("-"):
        return ["check"] + argv
    return argv


def _exit_on_signal(signum, frame):
    # SIGTERM (a job scheduler cancelling the job) and SIGHUP would otherwise end the doctor without
    # cleanup, leaving a hung npu-smi or a MindSpore child (each in its own session) running.
    # SystemExit unwinds: finally blocks and atexit kill every tracked child.
    raise SystemExit(128 + signum)


def _install_signal_handlers() -> None:
    import signal

    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) in (signal.SIG_DFL, None):
            try:
                signal.signal(sig, _exit_on_signal)
            except ValueError:  # main() called from a worker thread: only the main thread may set handlers
                return


def error_line(reason: str) -> str:
    """The one line a could-not-run error prints on stderr: "ascend-doctor: error: <reason>"."""
    from .i18n import _

    return _("ascend-doctor: error: {reason}").format(reason=reason)


def main(argv: Optional[List[str]] = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    argv = _with_default_command(given)
    try:
        _early_language(given)
        parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
        args = parser.parse_args(argv)
        _choose_language(args)
        return int(args.func(args))
    except ImportError as exc:
        reason = missing_dependency(exc)
        if reason is None:
            raise
        print(error_line(reason), file=sys.stderr)
        return EXIT_CANNOT_RUN
    except CliError as exc:
        # One line, always: a message built from a library's text may carry newlines.
        print(error_line(" ".join(str(exc).split())), file=sys.stderr)
        return EXIT_CANNOT_RUN
    except KeyboardInterrupt:
        from .i18n import _

        print(_("ascend-doctor: interrupted"), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `ascend-doctor ... | head`: the reader left. Exit as a Unix tool killed by SIGPIPE would,
        # with no traceback; stdout goes to /dev/null so the interpreter's last flush cannot fail again.
        import os

        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_PIPE


# Set by console_main: the process ends when main() returns, so a command that paused the cyclic collector for its
# run (triage) leaves it paused: resumed, its first collection walks every object the run made (~55,000 after a
# triage of a clean log: 15-30 ms) only for the process to end.
ENDS_AFTER_MAIN = [False]


def console_main() -> int:
    """The `ascend-doctor` command (and `python -m ascend_doctor`): main(), for a process that ends right after.

    The exiting interpreter runs one last garbage collection over every object still alive: the modules, the
    matrix, the report (~5 ms of a 50 ms check). gc.freeze() takes them out of its way; what it would have
    found is freed when the process ends all the same. Neither that nor the SIGTERM/SIGHUP handlers are done in
    main(): a caller that goes on running after it (tests, a script using the CLI in-process) keeps its collector
    and its signal handling as they were (a handler left behind would also be inherited by every process that
    caller forks)."""
    _install_signal_handlers()
    ENDS_AFTER_MAIN[0] = True
    code = main()
    import gc

    gc.freeze()
    return code
