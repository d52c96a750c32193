"""Why the doctor stops, and the exit code each reason gives (the CLI alone turns them into a status).

0 nothing at or above --fail-on; 1 findings at or above it; 2 the doctor could not run (bad arguments,
a selection that matches no check, input that is not what it claims, a missing dependency), with a
one-line reason naming file, field and expectation; 130 interrupted (Ctrl-C, as a shell reports
SIGINT); 141 the reader of stdout went away (`| head`, as a shell reports SIGPIPE).
"""

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_CANNOT_RUN = 2
EXIT_INTERRUPTED = 130
EXIT_PIPE = 141


class CliError(Exception):
    """A one-line reason the doctor could not run (exit 2)."""
