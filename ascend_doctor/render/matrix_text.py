"""`matrix show` as text: the tables of one query, sources cited by number and listed once at the end."""

from __future__ import annotations

from typing import Any, Dict, List

from ..i18n import N_, _, lookup
from .layout import fit_columns, has_wide, table, wrap


def text_table(rows: List[List[Any]], headers: List[str], width: int) -> str:
    from tabulate import tabulate

    head, *body = fit_columns(headers, rows, width)
    if any(has_wide(str(c)) for r in [head] + body for c in r):
        # tabulate measures len(), not terminal columns (without wcwidth): Chinese cells would not line up.
        # layout.table is the same "simple" layout by display width (tests/render/test_text_zh.py: equal in English).
        return table(head, body)
    # disable_numparse: "9.0" is a version, not the number 9
    return tabulate(body, headers=head, tablefmt="simple", disable_numparse=True)


def relation(row: dict) -> str:
    return row["relation"] + (f" ({row['soc']})" if row.get("soc") else "")


def fmt(v) -> str:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    return "" if v is None else str(v)


class Sources:
    """Sources cited by number ([1]) in the text, listed once at the end by their title or URL: a table
    with a source column as wide as a repository path does not fit any terminal."""

    def __init__(self, matrix):
        self.matrix = matrix
        self.numbers: Dict[str, int] = {}

    def mark(self, ids) -> str:
        nums: List[int] = []
        for sid in ids or []:
            n = self.numbers.setdefault(self.matrix.source_title(sid), len(self.numbers) + 1)
            if n not in nums:
                nums.append(n)
        return " ".join(f"[{n}]" for n in sorted(nums))

    def lines(self, width: int) -> List[str]:
        out = ["", _("Sources:")] if self.numbers else []
        for title, n in self.numbers.items():
            label = f"  [{n}] "
            out.extend(wrap(title, width, label, " " * len(label)))  # label: ASCII
        return out


def gpu_table_rows(gpu: dict, refs) -> List[List[str]]:
    """One line per GPU source of a MindSpore row (docs/matrix.md "MindSpore on CUDA"), then the disputed CUDAs."""
    if not gpu.get("built_for", {}).get("value") and not gpu.get("disputed") and not gpu.get("cuda_checker"):
        return []
    rows = []
    for key, label in (("cuda_plugins", N_("wheel plugins")), ("cuda_wheels", N_("release list")),
                       ("install_guide", N_("install guide")), ("cuda_checker", N_("checker"))):
        v = gpu.get(key)
        if v:
            rows.append([_(label), fmt(v.get("value", v.get("cuda"))), refs.mark(v["source"])])
    rows.append([_("built for"), fmt(gpu["built_for"]["value"]) or _("none"), ""])
    for d in gpu.get("disputed", []):
        rows.append([_("disputed"), d["cuda"], _("{yes} yes, {no} no").format(yes=refs.mark(d["listed_by"]),
                                                                             no=refs.mark(d["not_listed_by"]))])
    return rows


def _reads_legend(matrix, summary, width: int) -> List[str]:
    """What the `reads` column's values mean: the file each kind of version check reads, from the matrix rows."""
    files: Dict[str, str] = {}
    for s in summary:
        if s["file_read"] not in files:
            rows = matrix.rows_for_mindspore(s["mindspore"])
            if rows:
                files[s["file_read"]] = rows[0]["checker"]["file_read"]
    if not files:
        return []
    out = wrap(_("{reads}: the file MindSpore's version check reads the CANN compiler version from:")
               .format(reads=_("reads")), width)
    for kind, path in files.items():
        out.extend(wrap(f"{kind}: {lookup(path)}", width, "  ", "    "))  # a data text, catalogued
    return out


def render_show(matrix, args, result: Dict[str, Any], width: int) -> str:
    info = matrix.info()
    values = {"version": info["version"], "date": info["date"], "source": lookup(info["source"]),
              "origin": info.get("from")}
    # one line whatever the width, like the report's header rows: which matrix answered is grepped for whole
    out: List[str] = [(_("compatibility matrix {version} ({date}, {source}, installed from {origin})")
                       if info.get("from") else _("compatibility matrix {version} ({date}, {source})"))
                      .format(**values), ""]
    if args.mindspore is None and args.cann is None and args.driver is None:
        table = [[s["mindspore"], fmt(s["accepted_compilers"]), s["file_read"], fmt(s["cann"]), fmt(s["hdk"]),
                  fmt(s["python"]), fmt(s["cuda"])] for s in result["summary"]]
        out.append(text_table(table, ["MindSpore", _("accepts compiler"), _("reads"), "CANN", "HDK", "Python", "CUDA"],
                          width))
        out.append("")
        out.extend(wrap(_("{count} MindSpore releases; `matrix show --mindspore V` for sources and notes.")
                        .format(count=len(result["summary"])), width))
        out.extend(_reads_legend(matrix, result["summary"], width))
        if any(m in c for s in result["summary"] for c in s["cann"] for m in "†‡"):
            # Chinese marks these CANN cells († ‡) rather than a note that wraps into fragments in a narrow column
            out.extend(wrap(_("† named only by the MindSpore checker's list; ‡ the MindSpore checker rejects it."),
                            width))
        if any(str(c).endswith("*") for s in result["summary"] for c in s["cuda"]):
            out.extend(wrap(_("CUDA marked *: the sources disagree on that GPU build (one lists it, another does not); "
                              "`matrix check` warns and names both."), width))
        return "\n".join(out) + "\n"
    refs = Sources(matrix)
    if args.mindspore is not None:
        s = result["summary"][0]
        row = result["rows"][0]
        out.extend(wrap(_("MindSpore {version}: its checker accepts CANN compiler {compilers}, read from {file} "
                          "{sources}").format(version=s["mindspore"], compilers=fmt(s["accepted_compilers"]),
                                              file=lookup(row["checker"]["file_read"]),
                                              sources=refs.mark(row["checker"]["source"])), width, "", "  "))
        if s["custom_ops_built_with"]:
            out.extend(wrap(_("bundled custom ops built with CANN compiler {compiler}").format(
                compiler=s["custom_ops_built_with"]), width, "  "))
        out += ["", text_table([[c["cann"], c["compiler"] or _("unknown"),
                             {True: _("yes"), False: _("NO"), None: _("unknown")}[c["accepted"]],
                             "; ".join(f"{n['by']} ({n['confidence']})" for n in c["named_by"]),
                             refs.mark(list(dict.fromkeys(x for n in c["named_by"] for x in n["source"])))]
                            for c in result["cann_candidates"]],
                           ["CANN", _("compiler"), _("accepted"), _("named by"), _("source")], width)]
        hdk_rows = [[cann, fmt(r["hdk"]), relation(r), r["confidence"], refs.mark(r["source"])]
                    for cann, rs in result["hdk"].items() for r in rs]
        if hdk_rows:
            out += ["", text_table(hdk_rows, ["CANN", "Ascend HDK", _("relation"), _("confidence"), _("source")], width)]
        py = [[r["platform"], r["flavour"], fmt(r["python"]), refs.mark(r["source"])] for r in row["python"]]
        if py:
            out += ["", text_table(py, [_("platform"), _("build"), "Python", _("source")], width)]
        gpu = gpu_table_rows(row["gpu"], refs)
        if gpu:
            out += ["", text_table(gpu, ["GPU", "CUDA", _("source")], width)]
        for note in s["notes"]:
            out.append("")
            out.extend(wrap(_("note: {note}").format(note=lookup(note)), width, "", "  "))  # a data text, catalogued
        return "\n".join(out + refs.lines(width)) + "\n"
    if args.cann is not None:
        out.extend(wrap(_("CANN {release}: compiler version {compiler} ({confidence}; {basis})").format(
            release=result["cann"], compiler=result["compiler"] or _("unknown"),
            confidence=result["compiler_confidence"], basis=result["basis"]), width, "", "  "))
        for r in result["rows"]:
            for iv in r["innerversions"]:
                out.extend(wrap(f"innerversion {fmt(iv['innerversion'])} {refs.mark(iv['source'])}", width, "  ",
                                "    "))
            if r.get("python"):
                out.extend(wrap(_("CANN supports Python {low}-{high} {sources}").format(
                    low=r["python"]["min"], high=r["python"]["max"], sources=refs.mark(r["python"]["source"])),
                    width, "  ", "    "))
        if result["mindspore"]:
            out += ["", _("MindSpore releases whose checker accepts it:"), text_table(
                [[s["mindspore"], fmt(s["accepted_compilers"]), fmt(s["python"]),
                  refs.mark(matrix.rows_for_mindspore(s["mindspore"])[0]["checker"]["source"])]
                 for s in result["mindspore"]], ["MindSpore", _("accepts compiler"), "Python", _("source")], width)]
        else:
            out += ["", _("No MindSpore release in the matrix accepts this CANN (unknown).")]
        if result["hdk"]:
            out += ["", text_table([[fmt(r["hdk"]), relation(r), r["confidence"], refs.mark(r["source"])]
                                for r in result["hdk"]], ["Ascend HDK", _("relation"), _("confidence"), _("source")],
                               width)]
        return "\n".join(out + refs.lines(width)) + "\n"
    out.append(_("Driver {version}:").format(version=args.driver))
    if result["rows"]:
        out.append(text_table([[r["cann"], fmt(r["hdk"]), relation(r), r["confidence"], refs.mark(r["source"])]
                           for r in result["rows"]], ["CANN", "Ascend HDK", _("relation"), _("confidence"), _("source")],
                          width))
    s = result["driver_sample"]
    if s:
        out.append("")
        out.extend(wrap(_("version.info sample: compatible_version_fw={value} {sources}").format(
            value=s["compatible_version_fw"], sources=refs.mark(s["source"])), width, "", "  "))
    for r in result["firmware"]:
        values = {"hdk": r["hdk"], "firmware": r["firmware"], "soc": r.get("soc"), "sources": refs.mark(r["source"])}
        out.extend(wrap((_("firmware shipped with HDK {hdk}: {firmware} ({soc}) {sources}") if r.get("soc") else
                         _("firmware shipped with HDK {hdk}: {firmware} {sources}")).format(**values),
                        width, "", "  "))
    return "\n".join(out + refs.lines(width)) + "\n"
