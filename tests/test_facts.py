"""Facts round-trip through JSON: a saved report's facts are the facts the checks judged."""

import json

import pytest

from ascend_doctor.facts import CannInstall, Facts, FactsError, NpuDevice
from ascend_doctor.host import SnapshotHost
from ascend_doctor.probes import collect_facts
from tests.helpers.i18n_asserts import assert_is_msg, assert_msg, deferred
from tests.helpers.snapshot_reports import report_for, snapshot_dirs

SNAPSHOTS = snapshot_dirs()


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_every_snapshot_facts_round_trip(name):
    facts = collect_facts(SnapshotHost(SNAPSHOTS[name]))
    back = Facts.from_json(json.loads(json.dumps(facts.to_json())))
    assert back == facts
    assert isinstance(back.cann.installs[0], CannInstall) if back.cann.installs else True
    assert all(isinstance(d, NpuDevice) for d in back.npu.devices)
    # and a report's (redacted) facts read back to the same JSON
    saved = json.loads(json.dumps(report_for(SNAPSHOTS[name]).to_json()))["facts"]
    assert Facts.from_json(saved).to_json() == saved


def test_from_json_names_the_bad_field():
    with pytest.raises(FactsError, match=r"facts\.cann\.installs\[0\]\.root: missing"):
        Facts.from_json({"cann": {"installs": [{"kind": "toolkit"}]}})
    with pytest.raises(FactsError, match=r"facts\.npu\.devices\[1\]\.npu_id: expected an integer"):
        Facts.from_json({"npu": {"devices": [{"npu_id": 0}, {"npu_id": "zero"}]}})
    with pytest.raises(FactsError, match=r"facts\.system: expected an object"):
        Facts.from_json({"system": []})
    with pytest.raises(FactsError, match=r"^facts: expected an object"):
        Facts.from_json(["not", "facts"])


def test_unknown_keys_are_ignored_and_missing_ones_default():
    facts = Facts.from_json({"system": {"hostname": "n1", "from_a_newer_doctor": 1}, "new_area": {}})
    assert facts.system.hostname == "n1" and facts.cann == Facts().cann


def test_the_device_inventory_is_derived_once_on_the_npu_facts():
    from ascend_doctor.checks._accelerators import npu_count
    from ascend_doctor.checks._node import node_device_ids
    from ascend_doctor.facts import NpuSmiFacts

    npu = NpuSmiFacts(devices=[NpuDevice(npu_id=0, device_id=4), NpuDevice(npu_id=1, device_id=5)],
                      dev_nodes=["/dev/davinci4", "/dev/davinci5", "/dev/davinci6"])
    assert (npu.count, npu.device_ids) == (2, [4, 5])  # npu-smi's view first
    nodes_only = NpuSmiFacts(dev_nodes=["/dev/davinci3", "/dev/davinci0"])
    assert (nodes_only.count, nodes_only.device_ids) == (2, [0, 3])
    facts = Facts(npu=nodes_only)
    assert npu_count(facts) == 2 and node_device_ids(facts) == {0, 3}
    assert npu_count(Facts()) == 0 and node_device_ids(Facts()) is None
    facts.npu, facts.driver.installed = NpuSmiFacts(), True
    assert npu_count(facts) == 1  # a driver without a device seen: one NPU assumed present (as before)


# -- typed launch facts: no untyped extras -------------------------------------------------------------------

def test_facts_have_no_untyped_extras_and_no_code_reads_them():
    """Every probe fills a typed Facts field; nothing in the package digs a report's facts.extra out by hand (the
    JSON place of the launch facts is facts.py's business: to_json, from_json, put_launch)."""
    import os
    import re

    from ascend_doctor import records
    from tests.helpers import REPO

    assert "extra" not in {f.name for f in records.fields(Facts)}
    package = os.path.join(REPO, "ascend_doctor")
    found = []
    for root, _, files in os.walk(package):
        for name in files:
            path = os.path.join(root, name)
            if not name.endswith(".py") or path == os.path.join(package, "facts.py"):
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for pattern in (r"""\bfacts\.extra\b""", r"""\[["']extra["']\]""", r"""\.get\(["']extra["']""",
                            r"""\["launch"\]""", r"""\.get\(["']launch["']"""):
                found += [f"{os.path.relpath(path, REPO)}: {m.group(0)}" for m in re.finditer(pattern, text)]
    assert found == []


def _launch_json():
    return {"name": "n1-rank3", "host": "n1", "rank": 3, "local_rank": 3, "world_size": 8, "job_id": "7",
            "role": None, "launchers": ["slurm"], "identity_source": {"rank": "SLURM_PROCID"},
            "addresses": ["10.0.0.1"], "variables": {"HCCL_CONNECT_TIMEOUT": "600"},
            "rank_table": {"path": "/job/rt.json", "digest": "ab12", "servers": [], "server_count": "2"},
            "errors": []}


def test_launch_facts_are_typed_and_stay_at_extra_launch_in_the_json():
    from ascend_doctor.facts import LaunchFacts, LaunchRankTable, launch_of

    old = {"extra": {"launch": _launch_json()}}  # a report written before the launch facts were typed
    facts = Facts.from_json(old)
    assert isinstance(facts.launch, LaunchFacts) and isinstance(facts.launch.rank_table, LaunchRankTable)
    assert (facts.launch.rank, facts.launch.rank_table.server_count, facts.launch.rank_table.complete) == (3, "2", True)
    out = facts.to_json()
    assert out["extra"]["launch"]["name"] == "n1-rank3" and "launch" not in out  # where older readers look
    assert Facts.from_json(out) == facts and launch_of(out) == facts.launch
    assert Facts().to_json()["extra"] == {} and Facts.from_json({"extra": {}}).launch is None
    with pytest.raises(FactsError, match=r"facts\.extra\.launch\.rank: expected an integer"):
        Facts.from_json({"extra": {"launch": dict(_launch_json(), rank="3")}})
    assert launch_of({"extra": {"launch": [1]}}) is None  # a renderer shows the host name instead
    assert Facts.from_json({"extra": {"planned": True}}).planned  # reports from before facts.planned


def test_a_partial_read_builds_only_the_fields_asked_for():
    full = {"driver": {"installed": True, "version": "24.1.rc2"}, "system": {"hostname": "n1"},
            "npu": {"devices": [{"npu_id": 0, "name": "910B3", "bus_id": "0000:c1:00.0"}]},
            "extra": {"launch": _launch_json()}}
    part = Facts.from_json(full, only=("driver", "npu.devices.name", "launch"))
    assert part.driver.version == "24.1.rc2" and part.npu.devices[0].name == "910B3"
    assert part.npu.devices[0].bus_id is None and part.npu.devices[0].npu_id == 0  # not asked; required: read
    assert part.launch.name == "n1-rank3" and part.system.hostname is None  # not read
    with pytest.raises((AttributeError, TypeError)):  # a view: fields not read are empty and read-only
        part.npu.processes.append({})
    assert not part.npu.processes and not part.npu.dev_nodes
    assert Facts.from_json({"system": []}, only=("driver",)).system == Facts().system  # not read, not checked
    assert Facts.from_json(full, only=("npu", "npu.devices.name")).npu.devices[0].bus_id  # the whole section wins
    with pytest.raises(FactsError, match=r"facts\.npu\.devices\[0\]\.npu_id: missing"):
        Facts.from_json({"npu": {"devices": [{}]}}, only=("npu.devices.name",))
    with pytest.raises(FactsError, match=r"facts\.driver\.version: expected a string"):
        Facts.from_json({"driver": {"version": 24}}, only=("driver.version",))


# -- the judged CANN install: one rule, derived once ---------------------------------------------------------

def _install(root, kind, owner="root", **kw):
    return CannInstall(root=root, kind=kind, owner=owner, **kw)


@pytest.mark.parametrize("installs,env_roots,want", [
    ([], {}, (None, None, "none", None)),
    ([_install("/opt/x/nnae/latest", "nnae", "custom")], {},
     ("/opt/x/nnae/latest", "/opt/x", "only", None)),
    # none active: the default order (toolkit, cann, nnae, nnrt; root's prefix before the user's), not the order found
    ([_install("/usr/local/Ascend/nnae/latest", "nnae"), _install("/home/u/Ascend/ascend-toolkit/latest", "toolkit",
                                                                  "user"),
      _install("/usr/local/Ascend/ascend-toolkit/latest", "toolkit")], {},
     ("/usr/local/Ascend/ascend-toolkit/latest", "/usr/local/Ascend", "default_order", None)),
    ([_install("/usr/local/Ascend/nnrt/latest", "nnrt"), _install("/usr/local/Ascend/cann", "cann")], {},
     ("/usr/local/Ascend/cann", "/usr/local/Ascend", "default_order", None)),
    # the environment decides, whatever the order
    ([_install("/usr/local/Ascend/ascend-toolkit/latest", "toolkit"),
      _install("/home/u/Ascend/nnae/latest", "nnae", "user", active=True)],
     {"ASCEND_HOME_PATH": None, "ASCEND_OPP_PATH": "/home/u/Ascend/nnae/latest"},
     ("/home/u/Ascend/nnae/latest", "/home/u/Ascend", "environment", "ASCEND_OPP_PATH")),
    ([_install("/srv/old", "legacy")], {}, ("/srv/old", "/srv/old", "only", None)),
])
def test_the_judged_cann_install_is_one_rule(installs, env_roots, want):
    from ascend_doctor.facts import CannFacts

    cann = CannFacts(installs=installs, env_roots=env_roots)
    choice = cann.choose()
    assert (choice.root, choice.prefix, choice.reason, choice.variable) == want
    assert cann.judged is None and cann.choice == choice  # derived on read when not stored
    assert (cann.judged_install.root if cann.judged_install else None) == want[0]


def test_the_probe_stores_the_choice_and_every_reader_uses_it():
    """install.* (target_install), compat.* (judged_cann) and node_facts judge the same install: the stored one."""
    from ascend_doctor.checks._ascend import target_install
    from ascend_doctor.checks.compat import judged_cann
    from ascend_doctor.facts import CannChoice, CannFacts
    from ascend_doctor.node_facts import CANN, comparable

    toolkit = _install("/usr/local/Ascend/ascend-toolkit/latest", "toolkit", release="8.0.RC2")
    nnae = _install("/usr/local/Ascend/nnae/latest", "nnae", release="7.0.0")
    facts = Facts(cann=CannFacts(installs=[nnae, toolkit]))
    assert target_install(facts.cann) is toolkit and judged_cann(facts)[0] is toolkit
    assert comparable(facts)[CANN] == "8.0.RC2"  # was "unknown" with two installs and none active
    assert_msg(deferred(judged_cann, facts)[2], "the environment points at none; {root} comes first in the default order "
               "(ascend-toolkit, cann, nnae, nnrt; /usr/local/Ascend before $HOME/Ascend)", root=toolkit.root)
    facts.cann.judged = CannChoice(root=nnae.root, reason="environment")  # what the probe stored wins
    assert target_install(facts.cann) is nnae and judged_cann(facts)[0] is nnae
    assert comparable(facts)[CANN] == "7.0.0"
    assert_is_msg(deferred(judged_cann, facts)[2], "the environment points at it")
    back = Facts.from_json(json.loads(json.dumps(facts.to_json())))
    assert back.cann.judged == facts.cann.judged
    facts.cann.judged = CannChoice(root="/gone", reason="environment")  # a hand-edited report: the rule decides
    assert target_install(facts.cann) is toolkit


def test_snapshots_store_the_judged_install():
    for name in sorted(SNAPSHOTS):
        cann = collect_facts(SnapshotHost(SNAPSHOTS[name])).cann
        assert cann.judged is not None and cann.judged == cann.choose(), name
        if cann.installs:
            assert cann.judged_install is not None and cann.judged.reason != "none", name
