"""How much the Ascend probes cost, against the floor of the same work measured in the same run.

- npu-smi parsing: parse_npu_smi_info on the A3 fixture table (16 dies) and on 1 MB of junk,
  against `str.splitlines()` of the same text (reading the lines is the least any parser does).
- Probing a snapshot: driver + firmware + npu + cann probes on each Ascend fixture, against
  opening the snapshot (SnapshotHost loads manifest, env and commands).

Run: python scripts/bench_ascend.py
"""

from __future__ import annotations

import json
import os
import sys
import timeit

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from ascend_doctor.host import SnapshotHost  # noqa: E402
from ascend_doctor.probes import ProbeOptions  # noqa: E402
from ascend_doctor.probes.ascend_driver import probe_driver, probe_firmware  # noqa: E402
from ascend_doctor.probes.cann import probe_cann  # noqa: E402
from ascend_doctor.probes.npu_smi import parse_npu_smi_info, probe_npu  # noqa: E402

FIXTURES = os.path.join(REPO, "tests", "fixtures")


def best(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def main():
    with open(os.path.join(FIXTURES, "a3_node", "commands.json")) as fh:
        table = json.load(fh)[0]["stdout"]
    junk = ("garbage line with no table at all " * 30 + "\n") * 1000
    for label, text, n in (("A3 table (16 dies)", table, 2000), ("1 MB of junk", junk, 20)):
        t_parse = best(lambda: parse_npu_smi_info(text), n)
        t_floor = best(lambda: text.splitlines(), n)
        print(f"parse_npu_smi_info {label:<20} {t_parse * 1e6:9.1f} us   splitlines {t_floor * 1e6:8.1f} us   "
              f"ratio {t_parse / t_floor:6.1f}x")
    opts = ProbeOptions()
    for name in sorted(os.listdir(FIXTURES)):
        path = os.path.join(FIXTURES, name)
        if not os.path.isfile(os.path.join(path, "manifest.json")):
            continue
        host = SnapshotHost(path)

        def probes():
            for probe in (probe_driver, probe_firmware, probe_npu, probe_cann):
                probe(host, opts)

        t_probe = best(probes, 20)
        t_open = best(lambda: SnapshotHost(path), 20)
        print(f"probes on {name:<22} {t_probe * 1e3:7.2f} ms   open snapshot {t_open * 1e3:6.2f} ms   "
              f"ratio {t_probe / t_open:5.1f}x")


if __name__ == "__main__":
    main()
