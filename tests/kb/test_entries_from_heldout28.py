"""What was mended from heldout28 after that set was measured (round 20): a healthy msrun start's routine retries are
not a failure, and a long line is shown around what its entry read. Lines from a 2-worker msrun run of MindSpore 2.7.0
on the CPU made here (another run than the fixture's); heldout28 itself (tests/fixtures/corpus/heldout28) checks the
whole set through the corpus floors."""

from ascend_doctor.triage import triage_paths

RETRY = ("[WARNING] DEVICE(2214,7f11e57fe6c0,python):2026-12-07-00:12:03.101.233 [mindspore/ccsrc/plugin/device/cpu/hal/"
         "hardware/ms_collective_comm_lib.cc:251] QueryUniqueID] Retry to lookup the unique id for group mccl_world_group "
         "from the meta server node...Retry time: 399/400, sleep 1")
DONE = ("[WARNING] DISTRIBUTED(2214,7f11e57fe6c0,python):2026-12-07-00:12:04.602.510 [mindspore/ccsrc/distributed/"
        "collective/collective_manager.cc:1019] CreateDeviceCommunicator] End initialize communication group on the "
        "device side: mccl_world_group")
FAILED = ("RuntimeError: Failed to fetch the unique id of the collective lib from the meta server node. Maybe the root "
          "rank process of this group has exited or has not executed to QueryUniqueID step. Please check root rank's log.")


def _problems(tmp_path, lines):
    (tmp_path / "worker_1.log").write_text("\n".join(lines) + "\n")
    return {p.signature.id: p for p in triage_paths([str(tmp_path / "worker_1.log")]).problems}


def test_the_unique_id_retries_of_a_start_that_went_on_are_cleared(tmp_path):
    got = _problems(tmp_path, [RETRY, RETRY.replace("399/400", "398/400"), DONE, "epoch: 1 step: 1, loss is 1.68"])
    assert got["MS_UNIQUE_ID_FETCH_TIMEOUT"].resolved_by is not None


def test_retries_that_end_in_the_failure_are_still_a_failure(tmp_path):
    got = _problems(tmp_path, [RETRY, RETRY.replace("399/400", "1/400"), FAILED])
    assert got["MS_UNIQUE_ID_FETCH_TIMEOUT"].resolved_by is None
    # and retries with nothing after them (a job cut while waiting) are not cleared either
    got = _problems(tmp_path, [RETRY])
    assert got["MS_UNIQUE_ID_FETCH_TIMEOUT"].resolved_by is None
