import os, torch, torch.distributed as dist
dist.init_process_group("gloo")
t = torch.ones(2) * dist.get_rank()
dist.all_reduce(t)
print("rank", dist.get_rank(), "sum", t.tolist())
dist.destroy_process_group()
