#!/usr/bin/python3
"""Training throughput of a tiny Llama-style configuration on this machine: milliseconds per Adam step and
tokens per second (forward + backward + update, random ids, full softmax over the vocabulary or, with
--vocab, a smaller one). Prints one line; nothing is asserted (the machine's load decides the numbers).

    nice -n 5 /usr/bin/python3 scripts/tiny-model/bench.py --threads 1 --hidden 64 --heads 4 --batch 32 --rows 64
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch  # noqa: E402

from model import TinyConfig, TinyLlama  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--mlp", type=int, default=128)
    ap.add_argument("--vocab", type=int, default=3072)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--rows", type=int, default=64, help="tokens per row")
    ap.add_argument("--steps", type=int, default=10)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    c = TinyConfig(vocab_size=a.vocab, max_positions=128, hidden=a.hidden, n_layer=a.layers, n_head=a.heads, intermediate=a.mlp)
    g = torch.Generator().manual_seed(0)
    model = TinyLlama(c)
    model.init_weights(g)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randint(0, a.vocab, (a.batch, a.rows + 1), generator=g)  # (B, T + 1)
    for step in range(3 + a.steps):  # 3 warm-up steps
        if step == 3:
            start = time.time()
        logits, _ = model(x[:, :-1])  # (B, T, V)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, a.vocab), x[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    dt = (time.time() - start) / a.steps
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"threads {a.threads}  layers {a.layers}  hidden {a.hidden}  heads {a.heads}  mlp {a.mlp}  vocab {a.vocab}  batch {a.batch} x {a.rows}: "
          f"{dt * 1000:.0f} ms/step, {a.batch * a.rows / dt / 1000:.1f}k tokens/s (load average {load})")


if __name__ == "__main__":
    main()
