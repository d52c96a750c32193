"""The smoke train: prove MindSpore trains on this machine's device, and name where it breaks.

`__main__` is the child process (stages, JSON lines on stdout); `runner` is the
parent (per-stage deadlines, process-group kill); `device` picks the device from
the facts; `distributed` launches the collectives check through `msrun`;
`classify` turns a run into findings, matching stderr against the knowledge base.

This package's `__init__` stays empty of imports: the child must start without
pulling in the rest of ascend_doctor.
"""
