"""`ascend-doctor matrix`: show the compatibility matrix, check a planned install, update the matrix.

    matrix show   [--mindspore V | --cann V | --driver V] [--format text|json]
    matrix check  --mindspore V [--cann V --driver V --firmware V --python V --cuda V --cudnn V --nvidia-driver V
                  --arch A]
    matrix update (--url URL | --file PATH) [--sha256 HEX] [--timeout S]

`check` builds facts from the versions given and runs the same compat.* check
functions `ascend-doctor check` runs on a machine (one code path), so a planned
install gets the same verdicts, fixes and exit codes.
"""

from __future__ import annotations

import json
import platform
import re
import sys
from typing import Any, Dict

from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..data import DataError
from ..facts import CannInstall, CudaFacts, DriverFacts, Facts, FirmwareFacts, MindSporeFacts, PythonFacts
from ..findings import FAIL, WARN
from ..i18n import N_, _
from ..render import FORMATS, render
from ..versions import major_minor, parse_version, python_major_minor, release_matches, version_key
from .common import report_color, require_positive_seconds, write_output

ARCHES = ("x86_64", "aarch64")
BUNDLED = N_("bundled")  # a matrix's source when it is the one shipped with the package (else the cache's path)


def register(sub) -> None:
    p = sub.add_parser("matrix", help=_(COMMANDS["matrix"]),
                       description=_("The compatibility matrix behind the compat.* checks (data/compat_matrix.json)."))
    msub = p.add_subparsers(dest="matrix_command", metavar="SUBCOMMAND")
    msub.required = True

    show = msub.add_parser("show", help=_("the rows that apply to a MindSpore, CANN or driver version (all MindSpore "
                                           "releases without a filter)"))
    which = show.add_mutually_exclusive_group()
    which.add_argument("--mindspore", metavar="V", help=_("MindSpore release, e.g. 2.6.0 or 2.7.0rc1"))
    which.add_argument("--cann", metavar="V", help=_("CANN release (8.0.RC2) or compiler version (7.3.0.1.231)"))
    which.add_argument("--driver", metavar="V", help=_("NPU driver / Ascend HDK version, e.g. 24.1.rc3"))
    show.add_argument("--format", choices=("text", "json"), default="text")
    show.add_argument("--output", "-o", metavar="FILE", help=_("write to FILE (atomically) instead of stdout"))
    show.set_defaults(func=run_show)

    chk = msub.add_parser("check", help=_("verdicts for a planned install (same checks and exit codes as `check`)"))
    chk.add_argument("--mindspore", metavar="V", required=True)
    chk.add_argument("--cann", metavar="V", help=_("CANN release (8.0.RC2) or compiler version (7.3.0.1.231)"))
    chk.add_argument("--driver", metavar="V", help=_("NPU driver version (driver/version.info Version=)"))
    chk.add_argument("--firmware", metavar="V", help=_("NPU firmware version (firmware/version.info Version=)"))
    chk.add_argument("--python", metavar="V", help=_("Python version, e.g. 3.10"))
    chk.add_argument("--cuda", metavar="V", help=_("CUDA runtime version for a MindSpore GPU build, e.g. 11.6"))
    chk.add_argument("--cudnn", metavar="V", help=_("cuDNN version, e.g. 8.5.0"))
    chk.add_argument("--nvidia-driver", metavar="V", dest="nvidia_driver",
                     help=_("NVIDIA driver version (nvidia-smi 'Driver Version'), e.g. 470.82.01; plans a MindSpore "
                            "GPU build"))
    chk.add_argument("--arch", choices=ARCHES, help=_("target machine architecture (default: this machine's)"))
    chk.add_argument("--format", choices=FORMATS, default="text")
    chk.add_argument("--output", "-o", metavar="FILE")
    chk.add_argument("--fail-on", choices=[WARN, FAIL], default=FAIL,
                     help=_("exit 1 when a verdict is at this level or worse (default: fail)"))
    chk.add_argument("--no-color", action="store_true")
    chk.set_defaults(func=run_check)

    upd = msub.add_parser("update", help=_("install a newer matrix (downloaded, or a local file on an air-gapped "
                                            "cluster) into ~/.cache/ascend-doctor/ (XDG_CACHE_HOME honoured)"))
    src = upd.add_mutually_exclusive_group(required=True)
    src.add_argument("--url", help=_("where the new compat_matrix.json is (https://..., or file:///path)"))
    src.add_argument("--file", metavar="PATH", help=_("a compat_matrix.json copied onto this machine (no network); "
                                                       "its sha256 is checked against --sha256 or PATH.sha256"))
    upd.add_argument("--sha256", metavar="HEX", help=_("expected sha256 of the file; refuse it otherwise"))
    upd.add_argument("--timeout", type=float, default=30.0, metavar="S", help=_("network timeout in seconds (default 30)"))
    upd.set_defaults(func=run_update)


def _matrix():
    from ..matrix import load_matrix

    try:
        return load_matrix()
    except DataError as exc:
        raise CliError(str(exc)) from None


def _version_arg(flag: str, value: str) -> str:
    if value is None:
        return None
    if not parse_version(value).valid:
        raise CliError(_("{flag}: {value}: expected a version such as 2.6.0, 8.0.RC2 or 24.1.rc3").format(
            flag=flag, value=repr(value)))
    return value.strip()


# ---------------------------------------------------------------------------
# show

def _ms_summary(matrix, row: dict) -> Dict[str, Any]:
    cands = matrix.cann_candidates(row["version"])
    gpu = row["gpu"]
    return {
        "mindspore": row["version"],
        "accepted_compilers": row["checker"]["accepted_compilers"],
        "file_read": row["checker"]["file_read_kind"],
        "cann": [c["cann"] if c["accepted"] is not False else _("{cann} (checker rejects)").format(cann=c["cann"])
                 for c in cands if any(n["role"] != "accepted-by-checker" for n in c["named_by"])]
                or [_("{cann} (via checker list)").format(cann=c["cann"]) for c in cands],
        "hdk": sorted({n["hdk"] for c in cands for n in c["named_by"] if n.get("hdk")}),
        "python": sorted({p for r in row["python"] for p in r["python"]}, key=version_key),
        "cuda": gpu["built_for"]["value"] + [d["cuda"] + "*" for d in gpu.get("disputed", [])],
        "custom_ops_built_with": (row.get("custom_ops_built_with") or {}).get("compiler_version"),
        "source": matrix.describe_source(row["checker"]["source"]),
        "notes": row.get("notes", []),
    }


def _show_mindspore(matrix, version: str) -> Dict[str, Any]:
    rows = matrix.rows_for_mindspore(version)
    if not rows:
        return {"rows": []}
    row = rows[0]
    cands = matrix.cann_candidates(row["version"])
    out = {"rows": [row], "summary": [_ms_summary(matrix, row)], "cann_candidates": cands,
           "hdk": {c["cann"]: matrix.hdk_for_cann(c["cann"]) for c in cands if c["accepted"]}}
    return out


def _show_cann(matrix, value: str) -> Dict[str, Any]:
    value = matrix.canonical_cann(value)  # 8.3rc1 shows what 8.3.RC1 shows
    row = matrix.cann_row(value)
    mm, conf, basis = matrix.compiler_for_cann(value)
    if row is None and len(parse_version(value).numbers()) >= 4:  # a compiler build number such as 7.3.0.1.231
        mm, conf, basis = major_minor(value), "high", "given as a compiler version"
        rels = matrix.cann_for_compiler(mm)
        row = matrix.cann_row(rels[0]["release"]) if rels else None
    release = row["release"] if row else value
    ms_rows = matrix.mindspore_for_compiler(mm) if mm else []
    return {"rows": [row] if row else [], "cann": release, "compiler": mm, "compiler_confidence": conf,
            "basis": basis, "mindspore": [_ms_summary(matrix, r) for r in ms_rows],
            "hdk": matrix.hdk_for_cann(release)}


def _show_driver(matrix, version: str) -> Dict[str, Any]:
    rows = [r for r in matrix.data["cann_hdk"] if any(release_matches(version, p) for p in r["hdk"])]
    return {"rows": rows, "driver_sample": matrix.driver_sample(version),
            "firmware": matrix.firmware_for_hdk(version)}


def run_show(args) -> int:
    matrix = _matrix()
    for flag in ("mindspore", "cann", "driver"):
        _version_arg("--" + flag, getattr(args, flag))
    if args.mindspore is not None:
        result = _show_mindspore(matrix, args.mindspore)
        query = {"mindspore": args.mindspore}
    elif args.cann is not None:
        result = _show_cann(matrix, args.cann)
        query = {"cann": args.cann}
    elif args.driver is not None:
        result = _show_driver(matrix, args.driver)
        query = {"driver": args.driver}
    else:
        rows = matrix.mindspore_releases
        result = {"rows": rows, "summary": [_ms_summary(matrix, r) for r in rows]}
        query = {}
    empty = not result["rows"] and not result.get("mindspore") and not result.get("hdk")
    if args.format == "json":
        text = json.dumps({"matrix": matrix.info(), "query": query, **result}, indent=1, ensure_ascii=False) + "\n"
    elif empty:
        what = ", ".join(f"{k} {v}" for k, v in query.items())
        text = _("compatibility matrix {version}: no rows for {query}; its pairings are unknown "
                 "(`ascend-doctor matrix update` may bring a newer matrix).").format(version=matrix.version,
                                                                                     query=what) + "\n"
    else:
        from ..render.layout import terminal_width
        from ..render.matrix_text import render_show

        text = render_show(matrix, args, result, terminal_width())
    write_output(text, args.output)
    return EXIT_FINDINGS if empty else EXIT_OK


# ---------------------------------------------------------------------------
# check (a planned install)

def planned_facts(matrix, args) -> Facts:
    """Facts as the probes would report them for the versions given on the command line."""
    facts = Facts()
    facts.planned = True  # the checks then say "planned", not "installed" or "the environment points at it"
    facts.system.arch = args.arch or platform.machine() or None
    gpu = bool(args.cuda or getattr(args, "nvidia_driver", None))
    flavour = "gpu" if gpu else "ascend"
    facts.mindspore = MindSporeFacts(installed=True, dist_name="mindspore", version=args.mindspore, flavour=flavour,
                                     location="(planned)")
    if args.cann:
        args.cann = matrix.canonical_cann(args.cann)
        mm, conf, basis = matrix.compiler_for_cann(args.cann)
        release = args.cann
        if matrix.cann_row(args.cann) is None and len(parse_version(args.cann).numbers()) >= 4:
            mm, basis = major_minor(args.cann), "given as a compiler version"
            rels = matrix.cann_for_compiler(mm)
            release = rels[0]["release"] if rels else None
        inst = CannInstall(root="(planned)", kind="toolkit", release=release, compiler_version=mm, active=True)
        if not mm:
            inst.errors.append(f"--cann {args.cann}: {basis}")
        facts.cann.installs = [inst]
        facts.cann.active_root = inst.root
    if args.driver:
        facts.driver = DriverFacts(installed=True, version=args.driver, package_version=args.driver)
    if args.firmware:
        fw = FirmwareFacts(installed=True, version=args.firmware)
        hdks = [r["hdk"] for r in matrix.data["hdk_firmware"] if r["firmware"] == args.firmware]
        fw.package_version = hdks[0] if hdks else None
        facts.firmware = fw
    if args.python:
        facts.python = PythonFacts(version=args.python, executable="(planned)")
    if gpu:
        facts.cuda = CudaFacts(runtime_libs=[{"path": "(planned)", "version": args.cuda}] if args.cuda else [],
                               cudnn_version=args.cudnn, driver_version=getattr(args, "nvidia_driver", None))
    return facts


def run_check(args) -> int:
    matrix = _matrix()
    for flag in ("mindspore", "cann", "driver", "firmware", "python", "cuda", "cudnn", "nvidia_driver"):
        _version_arg("--" + flag.replace("_", "-"), getattr(args, flag))
    if args.nvidia_driver and not re.fullmatch(r"\d+(\.\d+)+", args.nvidia_driver.strip()):
        raise CliError(_("--nvidia-driver: {value}: expected an NVIDIA driver version such as 470.82.01").format(
            value=repr(args.nvidia_driver)))
    if args.python and not python_major_minor(args.python):
        raise CliError(_("--python: {value}: expected a version such as 3.10").format(value=repr(args.python)))
    facts = planned_facts(matrix, args)
    from ..doctor import Selection, evaluate

    report = evaluate(facts, Selection(only=["compat"]), origin={"kind": "planned", "name": "planned install"},
                      matrix=matrix)
    text = render(report, args.format, color=report_color(args))
    write_output(text, args.output)
    return EXIT_FINDINGS if report.failed(args.fail_on) else EXIT_OK


# ---------------------------------------------------------------------------
# update

def run_update(args) -> int:
    from ..matrix_update import MatrixUpdateError, update_matrix

    require_positive_seconds("--timeout", args.timeout)
    try:
        message, _installed = update_matrix(args.file if args.file is not None else args.url, args.sha256,
                                   timeout=args.timeout)
    except MatrixUpdateError as exc:
        raise CliError(_("matrix update: {reason}; nothing changed").format(reason=exc)) from None
    except DataError as exc:
        raise CliError(str(exc)) from None
    sys.stdout.write(message + "\n")
    return EXIT_OK
