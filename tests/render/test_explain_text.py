"""render/explain_text.py: what `explain` prints for a check, a pitfall, an HCCL variable, a root-cause verdict."""

from ascend_doctor.render.explain_text import pitfall_text, readable_source, root_cause_text, value_range, variable_text


class _Entry:
    def __init__(self, key, info):
        self.key, self.info = key, info


def _variable(**over):
    e = {"name": "HCCL_BUFFSIZE", "meaning": "buffer per link", "type": "int", "default": 200, "unit": "MB",
         "range": [1, None], "values": None, "by_family": {"Atlas A3": {"range": [1, 4096]}}, "note": "",
         "source": "https://example.invalid/hccl", "signatures": [], "check": "ascend-doctor check --only x"}
    e.update(over)
    return e


def test_a_variable_says_default_range_per_family_and_where_to_check():
    lines = variable_text(_variable())
    text = "\n".join(lines)
    assert lines[0].startswith("HCCL_BUFFSIZE")
    assert "Default: 200 MB" in text and "Range: >= 1 MB" in text and "on Atlas A3: 1-4096 MB" in text
    assert "  ascend-doctor check --only x" in lines
    assert lines[-1].strip() == "Where it comes from: https://example.invalid/hccl"


def test_a_variable_without_meaning_points_at_its_document():
    text = "\n".join(variable_text(_variable(meaning="", note="", range=None, by_family={}, default=None)))
    assert "see its HCCL document (below)." in text and "Default:" not in text and "Range:" not in text


def test_value_range_open_and_closed():
    assert value_range(1, None, "MB") == ">= 1 MB" and value_range(0, 7, "") == "0-7"


def test_root_cause_steps_are_numbered_and_sourced():
    lines = root_cause_text(_Entry("link_down", {"fix": ["look at the port", "replace the cable"]}))
    assert lines[0].startswith("link_down: a root-cause verdict")
    assert "  1. look at the port" in lines and "  2. replace the cable" in lines
    assert lines[-1].endswith("docs/root-cause.md")


def test_a_pitfall_names_its_checks_and_signatures():
    e = {"id": "P99", "title": "A title", "advice": "Do this.", "checks": ["install.cann"],
         "signatures": [{"id": "SIG_A", "title": "sig title"}], "source": "reference/pitfalls.md#p99"}
    lines = pitfall_text(e)
    assert lines[0].startswith("P99  A title") and "  install.cann" in lines and "  SIG_A: sig title" in lines
    assert "(docs/pitfalls.md)" in " ".join(line.strip() for line in lines)  # the notes are not shipped: the page is
    assert readable_source("https://x.invalid/p") == "https://x.invalid/p"
