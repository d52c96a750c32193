import os, torch.distributed as dist
dist.init_process_group("gloo")
if dist.get_rank() == 1:
    raise ValueError("injected failure in rank 1")
dist.barrier()
