import argparse

import numpy as np
import torch

from stable.model import StableConfig


@torch.no_grad()
def estimate_loss(model, batches, device, n, amp_dtype):
    model.eval()
    losses = []
    for _ in range(n):
        xb, yb = next(batches)
        with torch.autocast(device_type=device.split(":")[0], dtype=amp_dtype, enabled=amp_dtype != torch.float32):
            _, loss = model(xb.to(device), yb.to(device))
        losses.append(loss.item())
    model.train()
    return float(np.mean(losses))


def build_config(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--amp_dtype", choices=["auto", "fp32", "bf16"], default="auto")
    ap.add_argument("--attn_impl", choices=["manual", "sdpa"], default="manual")
    ap.add_argument("--n_layer", type=int, default=6)
    ap.add_argument("--n_head", type=int, default=8)
    ap.add_argument("--n_embd", type=int, default=512)
    args = ap.parse_args(argv)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if args.amp_dtype == "auto":
        amp_dtype = torch.bfloat16 if device.startswith("cuda") else torch.float32
    else:
        amp_dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[args.amp_dtype]
    cfg = StableConfig(n_layer=args.n_layer, n_head=args.n_head, n_embd=args.n_embd, attn_impl=args.attn_impl)
    return cfg, device, amp_dtype
