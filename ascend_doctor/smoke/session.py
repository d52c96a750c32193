"""One smoke session, shared by `ascend-doctor smoke` and `check --smoke`: pick the device, run, classify.

Options (the same keys the CLI puts in ctx.options): device (auto|ascend|gpu|cpu),
device_id, steps, pynative, stage_timeout {stage|"*": seconds}, ranks,
master_port, master_addr, nnodes, node_rank.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from typing import Dict, List, Optional

from ..facts import Facts
from ..findings import Finding
from ..i18n import _, deferred
from .classify import collectives_finding, smoke_findings
from .device import ascend_soc_version, detect_device
from .distributed import DistributedConfig, run_distributed
from .runner import DEFAULT_STAGE_TIMEOUT, STAGES, SmokeConfig, run_smoke


def choose_device(facts: Facts, requested: Optional[str]):
    if requested and requested != "auto":
        return requested, [_("--device {device} given").format(device=requested)]
    return detect_device(facts)


def run_session(facts: Facts, options: Dict, kb=None, progress=None) -> List[Finding]:
    device, reasons = choose_device(facts, options.get("device"))
    # the interpreter that trains (--python or an activated environment): the smoke runs in it
    python = facts.python.executable if facts.python.chosen_by != "doctor" and facts.python.executable \
        else sys.executable
    timeouts = dict(options.get("stage_timeout") or {})
    default = float(timeouts.pop("*", DEFAULT_STAGE_TIMEOUT))
    if options.get("ranks"):
        config = DistributedConfig(ranks=int(options["ranks"]), device=device,
                                   master_port=int(options.get("master_port") or 8118),
                                   master_addr=options.get("master_addr") or "127.0.0.1",
                                   nnodes=int(options.get("nnodes") or 1), node_rank=options.get("node_rank"),
                                   phase_timeouts=timeouts, default_timeout=default, python=python)
        drun = run_distributed(config, progress)
        with deferred():  # `smoke` too: the findings' words are message ids the renderer words (report/2 keeps them)
            return [collectives_finding(drun, kb)]
    atc = shutil.which("atc") if device == "ascend" else None
    config = SmokeConfig(device=device, device_id=options.get("device_id"), steps=int(options.get("steps") or 40),
                         pynative=options.get("pynative", True), stage_timeouts=timeouts, default_timeout=default,
                         atc=atc, soc_version=ascend_soc_version(facts) if atc else None, python=python)
    run = run_smoke(config, progress)
    here = [i.set_env or i.root.rstrip("/") + "/set_env.sh" for i in facts.cann.installs]
    with deferred():
        return smoke_findings(run, kb, reasons, set_env_files=here)


class StageProgress:
    """Smoke progress on stderr: one live line on a TTY, one plain line per event otherwise."""

    def __init__(self, stream=None, tty: Optional[bool] = None):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self._stage = None
        self._since = 0.0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker = None
        self._width = 0

    def __call__(self, event: str, stage: str, info: dict) -> None:
        with self._lock:
            if event == "start":
                self._stage, self._since = stage, time.monotonic()
                if self.tty:
                    self._draw()
                    self._start_ticker()
                else:
                    self.stream.write(f"smoke: {self._label(stage)} ...\n")
            else:
                self._stage = None
                status, ms = info.get("status"), info.get("ms", 0)
                line = f"smoke: {self._label(stage)} {status} ({ms / 1000:.1f} s)"
                if self.tty:
                    self.stream.write("\r" + line.ljust(self._width) + "\n")
                    self._width = 0
                else:
                    self.stream.write(line + "\n")
            self.stream.flush()

    @staticmethod
    def _label(stage: str) -> str:
        if stage in STAGES:
            return f"[{STAGES.index(stage) + 1}/{len(STAGES)}] {stage}"
        return stage

    def _draw(self):
        text = f"smoke: {self._label(self._stage)} ... {time.monotonic() - self._since:.0f} s"
        self.stream.write("\r" + text.ljust(self._width))
        self._width = len(text)

    def _start_ticker(self):
        if self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()

    def _tick(self):
        while not self._stop.wait(1.0):
            with self._lock:
                if self._stage:
                    self._draw()
                    self.stream.flush()

    def done(self):
        self._stop.set()
