"""Real cluster launchers for the recipe tests: a one-node Slurm (slurmctld + slurmd on localhost, no
munge: auth/none, cred/none) started and stopped by the test, and Open MPI's mpirun.

Facts from shared/reference/launchers_local.md (Slurm 22.05 and Open MPI 4.1 from Debian, verified there).
A launcher that is not installed, or a daemon that does not come up, is a skip that says why - never a pass.
"""

import fcntl
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

SLURM_BINARIES = ("slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol")
# One Slurm at a time on this machine (its ports are fixed): a test started while another test process (a pytest-xdist
# worker, another checkout's suite) has one waits its turn here instead of finding the ports busy and skipping.
SLURM_LOCK = os.path.join(tempfile.gettempdir(), "ascend-doctor-tests-slurm.lock")
SLURM_LOCK_WAIT_S = 600

SLURM_CONF = """\
ClusterName=doctortest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
AuthType=auth/none
CredType=cred/none
MailProg=/bin/true
StateSaveLocation={root}/state/ctld
SlurmdSpoolDir={root}/state/d
SlurmctldPidFile={root}/run/slurmctld.pid
SlurmdPidFile={root}/run/slurmd.pid
SlurmctldLogFile={root}/log/slurmctld.log
SlurmdLogFile={root}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
NodeName=localhost CPUs={cpus} State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""


class LauncherUnavailable(Exception):
    """The launcher cannot run here; the message says why (the test skips with it)."""


def missing(binaries):
    return [b for b in binaries if shutil.which(b) is None]


def _port_free(port: int) -> bool:
    s = socket.socket()
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        s.close()


class SlurmCluster:
    """slurmctld + slurmd for one node called `localhost`, state under `root`. Use as a context manager."""

    def __init__(self, root, cpus=2):
        self.root = str(root)
        self.cpus = cpus
        self.conf = os.path.join(self.root, "slurm.conf")
        self.procs = []
        self._lock = None

    def _take_turn(self):
        self._lock = open(SLURM_LOCK, "a")
        deadline = time.monotonic() + SLURM_LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError:
                if time.monotonic() > deadline:
                    self._release()
                    raise LauncherUnavailable(f"another test process held the Slurm lock ({SLURM_LOCK}) for "
                                              f"{SLURM_LOCK_WAIT_S} s")
                time.sleep(0.2)

    def _release(self):
        if self._lock is not None:
            self._lock.close()  # closing the file releases the lock
            self._lock = None

    # -- life cycle --
    def __enter__(self):
        gone = missing(SLURM_BINARIES)
        if gone:
            raise LauncherUnavailable(f"Slurm not installed ({', '.join(gone)} not on PATH; "
                                      f"Debian: apt-get install -y slurm-wlm)")
        self._take_turn()
        # slurmd's and slurmctld's ports are fixed in the node's config; the reference setup uses these
        ports = (6817, 6818)
        busy = [p for p in ports if not _port_free(p)]
        if busy:
            self._release()
            raise LauncherUnavailable(f"Slurm ports {busy} on localhost are in use by something else")
        for sub in ("state/ctld", "state/d", "run", "log"):
            os.makedirs(os.path.join(self.root, sub), exist_ok=True)
        with open(self.conf, "w") as fh:
            fh.write(SLURM_CONF.format(root=self.root, ctld_port=ports[0], d_port=ports[1], cpus=self.cpus))
        try:
            self._start(["slurmctld", "-D", "-f", self.conf], "slurmctld.out")
            self._start(["slurmd", "-D", "-N", "localhost", "-f", self.conf], "slurmd.out")
            self._wait_idle(timeout=30)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start(self, argv, out_name):
        out = open(os.path.join(self.root, "log", out_name), "wb")
        self.procs.append(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                           env=self.env(), start_new_session=True))
        out.close()

    def _wait_idle(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for p in self.procs:
                if p.poll() is not None:
                    raise LauncherUnavailable(f"{p.args[0]} exited with {p.returncode} at start: "
                                              f"{self.log_tail()}")
            state = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, env=self.env())
            if state.stdout.strip().startswith("idle"):
                return
            time.sleep(0.3)
        raise LauncherUnavailable(f"Slurm node not idle after {timeout} s: {self.log_tail()}")

    def log_tail(self, n=6):
        lines = []
        for name in ("slurmctld.log", "slurmd.log", "slurmctld.out", "slurmd.out"):
            path = os.path.join(self.root, "log", name)
            if os.path.exists(path):
                lines += [f"{name}: {line}" for line in open(path, errors="replace").read().splitlines()[-n:]]
        return " | ".join(lines) or "(no daemon log)"

    def __exit__(self, *exc):
        # slurmd first, then slurmctld (the reference's order); whole sessions, so job steps go too
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait(timeout=5)
        self.procs = []
        self._release()

    # -- clients --
    def env(self, extra=None):
        env = dict(os.environ)
        env["SLURM_CONF"] = self.conf
        env.update(extra or {})
        return env

    def sbatch(self, argv, env=None, timeout=300):
        """Submit a batch job and wait for it to end; returns (job id, state, exit code)."""
        sub = subprocess.run(["sbatch", "--parsable", *argv], capture_output=True, text=True, env=self.env(env),
                             timeout=30)
        if sub.returncode != 0:
            raise AssertionError(f"sbatch failed ({sub.returncode}): {sub.stderr.strip()}")
        job = sub.stdout.strip().split(";")[0]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:  # squeue polling is faster than sbatch --wait
            q = subprocess.run(["squeue", "-h", "-j", job], capture_output=True, text=True, env=self.env())
            if q.returncode == 0 and not q.stdout.strip():
                break
            time.sleep(0.3)
        else:
            subprocess.run(["scancel", job], env=self.env())
            raise AssertionError(f"job {job} still running after {timeout} s: {self.log_tail()}")
        info = subprocess.run(["scontrol", "show", "job", job], capture_output=True, text=True, env=self.env())
        fields = dict(tok.split("=", 1) for tok in info.stdout.split() if "=" in tok)
        return job, fields.get("JobState", "?"), fields.get("ExitCode", "?")
