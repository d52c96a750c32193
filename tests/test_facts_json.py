"""Facts round-trip through JSON: a saved report's facts are the facts the checks judged."""

import json

import pytest

from ascend_doctor.facts import CannInstall, Facts, FactsError, NpuDevice
from ascend_doctor.host import SnapshotHost
from ascend_doctor.probes import collect_facts
from snapshot_reports import report_for, snapshot_dirs

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
