"""render/matrix_text.py: the tables of `matrix show`, sources cited by number and listed once."""

from ascend_doctor.render.matrix_text import Sources, fmt, gpu_table_rows, relation, text_table


class _Matrix:
    def source_title(self, sid):
        return {"a": "Title A", "b": "Title B", "a2": "Title A"}[sid]


def test_versions_stay_text_and_columns_line_up():
    out = text_table([["9.0", "2.5.0"], ["10.0", "2.6.0"]], ["CUDA", "MindSpore"], 100).splitlines()
    assert out[2].split() == ["9.0", "2.5.0"]  # not 9 (tabulate's number parsing is off)
    assert out[0].index("MindSpore") == out[2].index("2.5.0")


def test_a_source_is_numbered_once_by_its_title():
    refs = Sources(_Matrix())
    assert refs.mark(["a", "b"]) == "[1] [2]"
    assert refs.mark(["a2"]) == "[1]"  # same title, same number
    assert refs.lines(80) == ["", "Sources:", "  [1] Title A", "  [2] Title B"]
    assert Sources(_Matrix()).lines(80) == []


def test_cells():
    assert fmt(["8.0", "8.1"]) == "8.0, 8.1" and fmt(None) == "" and fmt(3) == "3"
    assert relation({"relation": "exact", "soc": "910B"}) == "exact (910B)" and relation({"relation": "min"}) == "min"


def test_gpu_rows_list_each_source_then_the_disputed_builds():
    gpu = {"built_for": {"value": ["11.6"]}, "cuda_wheels": {"value": ["11.6"], "source": ["a"]},
           "disputed": [{"cuda": "11.1", "listed_by": ["a"], "not_listed_by": ["b"]}]}
    rows = gpu_table_rows(gpu, Sources(_Matrix()))
    assert rows == [["release list", "11.6", "[1]"], ["built for", "11.6", ""], ["disputed", "11.1", "[1] yes, [2] no"]]
    assert gpu_table_rows({"built_for": {"value": []}}, Sources(_Matrix())) == []


def test_the_reads_column_is_explained_and_chinese_cann_cells_do_not_wrap_into_fragments():
    """Every value of the `reads` column is explained under the table (from the matrix rows), and in Chinese
    a CANN cell named only by the checker's list is marked † with a footnote instead of a note that wraps."""
    import os
    import re
    import subprocess
    import sys

    def show(lang):
        env = dict(os.environ, COLUMNS="100", NO_COLOR="1")
        return subprocess.run([sys.executable, "-m", "ascend_doctor", "matrix", "show", "--lang", lang],
                              capture_output=True, text=True, env=env, check=True).stdout

    for lang in ("en", "zh"):
        out = show(lang)
        lines = out.splitlines()
        kinds = {m.group(1) for l in lines if re.match(r"^\d+\.\d+\S*\s", l)
                 for m in [re.search(r"\s(fixed/\w+|opp_path|home_path|other)\s", l)] if m}
        assert kinds
        for kind in kinds:
            assert any(l.startswith(f"  {kind}: ") and "version.info" in l for l in lines), (lang, kind)
    zh = show("zh")
    assert "†" in zh and "† 仅见于 MindSpore 版本自检的列表" in zh
    assert "（来" not in zh and not any(l.strip().startswith("表）") for l in zh.splitlines())
