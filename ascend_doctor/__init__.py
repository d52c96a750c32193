"""ascend-doctor: diagnose the Huawei Ascend / MindSpore stack and say how to fix it.

In-process use (a training script's own pre-flight)::

    import ascend_doctor
    report = ascend_doctor.run()               # this machine
    report = ascend_doctor.run(bundle="x.tar.gz")
    if report.failed():                        # any finding at `fail`
        for f in report.findings:
            if f.is_problem:
                print(f.id, f.summary, f.fix)

`run` never prints and never exits; `report.to_json()` is the same document
`ascend-doctor check --format json` prints. `run(lang="zh")` writes the report's texts (titles,
summaries, fixes' comments) in Chinese; ids, statuses and JSON keys stay English either way.
"""

__version__ = "0.1.0"


def run(bundle=None, only=(), skip=(), timeout=10.0, lang="en", **extra):
    """Run the checks on this machine (or on a collected bundle) and return the Report, its texts in `lang`
    ("en" or "zh"; the language the caller had is restored afterwards). The texts are worded (Report.worded):
    for their message ids, use doctor.run_checks, whose report a renderer words in any language."""
    from . import i18n
    from .bundle import open_bundle
    from .doctor import RunOptions, run_checks
    from .host import LiveHost

    options = RunOptions(only=tuple(only), skip=tuple(skip), timeout=timeout, extra=extra)
    previous = i18n.get_lang()
    i18n.set_lang(i18n.normalize(lang, "lang"))
    try:
        if bundle is None:
            return run_checks(LiveHost(), options).worded()
        with open_bundle(str(bundle)) as host:
            return run_checks(host, options).worded()
    finally:
        i18n.set_lang(previous)
