import os, signal, time, torch.distributed as dist
dist.init_process_group("gloo")
if dist.get_rank() == 1:
    os.kill(os.getpid(), signal.SIGKILL)
import torch
t = torch.ones(1); dist.all_reduce(t)
