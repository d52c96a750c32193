"""`check --format html`: the verdict first, the version table, findings by area with evidence and fixes, the
node's plan when the report has one; rendered in real headless Chromium."""

import json
import os
import re

from ascend_doctor import i18n
from ascend_doctor.findings import Report
from ascend_doctor.render import html_check
from tests.helpers import FIXTURES, REPO, run_cli
from tests.helpers.browser import ink, load, needs_chromium, screenshot

ARTIFACTS = os.path.join(REPO, "test-artifacts")
BUNDLE = os.path.join(FIXTURES, "two_cann_installs")


def _report():
    proc = run_cli("check", "--bundle", BUNDLE, "--format", "json")
    assert proc.returncode == 1, proc.stderr
    return Report.from_json(json.loads(proc.stdout))


def test_the_page_has_the_verdict_first_versions_findings_and_fixes(tmp_path):
    out = tmp_path / "c.html"
    assert run_cli("check", "--bundle", BUNDLE, "--format", "html", "-o", str(out)).returncode == 1
    html = out.read_text()
    report = _report()
    assert "<script" not in html and "default-src 'none'" in html
    assert html.index("id='verdict'") < html.index("id='versions'") < html.index("id='area-")
    verdict = html[html.index("id='verdict'"):html.index("</section>")]
    assert "problems found" in verdict and "Summary: 1 fail" in verdict
    for f in report.findings:
        if f.status in ("fail", "warn", "error"):
            assert f"data-finding='{f.id}'" in html and f"href='#f-{f.id}'" in verdict
    assert "<th>NPU driver</th><td>24.1.rc3</td>" in html
    assert "source /usr/local/Ascend/ascend-toolkit/set_env.sh" in html  # a fix
    # the report's plan (every check report has one now) comes right after the verdict, before the versions
    assert html.index("id='verdict'") < html.index("id='plan'") < html.index("id='versions'")
    assert "source /usr/local/Ascend/ascend-toolkit/set_env.sh" in html[html.index("id='plan'"):html.index("id='versions'")]
    assert html.rstrip().endswith("</p>\n</body></html>") and "id='verdict-end'" in html


def test_a_plan_is_rendered_with_its_steps_alternatives_and_unresolved():
    from ascend_doctor.plan import Plan

    report = _report()
    report.plan = Plan.from_json({"steps": [{"do": "source /usr/local/Ascend/ascend-toolkit/set_env.sh", "level": "shell",
                              "needs_root": False, "reboot": False, "resolves": ["install.cann_env_sourced"]},
                             {"do": "install HDK <24.1.RC2>", "level": "driver", "needs_root": True, "reboot": True,
                              "resolves": ["compat.cann_driver"]}],
                   "alternatives": [{"why": "keep this CANN", "steps": [
                       {"do": "pip install mindspore==2.4.1", "level": "python", "needs_root": False, "reboot": False,
                        "resolves": []}]}],
                   "unresolved": ["mindspore.installed"]})
    html = html_check.render(report)
    plan = html[html.index("id='plan'"):html.index("id='versions'")]
    steps = re.findall(r"<tr><td class='num'>(\d+)</td><td><pre class='line'>(.*?)</pre></td><td>(.*?)</td>"
                       r"<td>(.*?)</td>", plan)
    assert steps[0] == ("1", "source /usr/local/Ascend/ascend-toolkit/set_env.sh", "shell", "")
    assert steps[1] == ("2", "install HDK &lt;24.1.RC2&gt;", "driver / firmware", "needs root, reboot")
    assert "Alternative: keep this CANN" in plan and "pip install mindspore==2.4.1" in plan
    assert "href='#f-install.cann_env_sourced'" in plan and "href='#f-mindspore.installed'" in plan
    assert html.index("id='verdict'") < html.index("id='plan'")


def test_the_page_in_chinese(tmp_path):
    out = tmp_path / "c.html"
    run_cli("check", "--bundle", BUNDLE, "--format", "html", "-o", str(out), "--lang", "zh")
    html = out.read_text()
    assert "<html lang='zh-CN'>" in html and "已安装的软件" in html and "What is installed" not in html
    i18n.set_lang("en")


@needs_chromium
def test_the_page_in_headless_chromium(tmp_path):
    out = tmp_path / "check.html"
    run_cli("check", "--bundle", BUNDLE, "--format", "html", "-o", str(out))
    dom, console = load(out)
    assert console == []
    assert re.search(r'<section class="box fail" id="verdict">.*problems found.*</section>', dom, re.S)
    for f in _report().findings:
        if f.status in ("fail", "warn"):
            assert f'data-finding="{f.id}"' in dom
    os.makedirs(ARTIFACTS, exist_ok=True)
    share, colours = ink(screenshot(out, os.path.join(ARTIFACTS, "check_report.png")))
    assert share > 0.03 and colours > 20, (share, colours)


def test_a_prose_fix_step_is_a_paragraph_not_inside_the_pre_block():
    from ascend_doctor.render.html_check import _fix_html

    html = _fix_html(["source /opt/x/set_env.sh", "install MindSpore 2.4.1 from https://www.mindspore.cn/versions",
                      "python -c \"import mindspore\""])
    assert html.count("<pre class='fix'>") == 2
    assert "<p class='fix'>by hand: install MindSpore 2.4.1 from https://www.mindspore.cn/versions</p>" in html
    assert "<pre class='fix'>source /opt/x/set_env.sh</pre>" in html
