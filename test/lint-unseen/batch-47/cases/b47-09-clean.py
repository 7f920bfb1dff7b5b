# case: b47-09-clean
# modelled-on: 3ld0n/attention-geometry https://github.com/3ld0n/attention-geometry/commit/ad512bee213c4acd6e2a9e34b59eef36a4536f1c
# label: correct
# class: clean
# pattern: an interpretability experiment that re-runs pretrained GPT-2 (Hugging Face weights) by hand with a softmax temperature: token + position embeddings, then per block ln_1, the block's own c_attn split into q, k, v heads, scores q @ k^T / (sqrt(head_dim) * T), an additive causal bias (tril - 1) * 1e4 (0 on the past, -1e4 on the future), softmax over keys, c_proj, the residual and the block's MLP; the per-layer attention maps are collected; at T = 1 the replay is checked against the model's own output_attentions
# why: correct: T is the quantity the experiment sweeps (T = 1 reproduces GPT-2's own 1/sqrt(head_dim), checked against the library's attentions), so sqrt(head_dim) * T is an intended temperature, not a wrong scale; the additive bias is 0 where tril is 1 (j <= i) and -1e4 above the diagonal, which is the polarity and the fill GPT-2's own eager attention used; all positions are real tokens, so no padding mask is needed
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/3ld0n/attention-geometry https://github.com/3ld0n/attention-geometry/commit/ad512bee213c4acd6e2a9e34b59eef36a4536f1c research/physics/experiments/exp-034_gpt2_temperature_bcft/run_temperature_bcft_sweep.py
import math

import numpy as np
import torch
import torch.nn.functional as F
from transformers import GPT2LMHeadModel

SEQ = 256
TEMPS = (0.5, 1.0, 2.0)


@torch.no_grad()
def replay_with_temperature(model: GPT2LMHeadModel, ids: torch.Tensor, temp: float):
    """Per-layer attention maps (heads, seq, seq) of GPT-2 with its softmax temperature set to temp."""
    cfg = model.config
    heads, width = cfg.n_head, cfg.n_embd
    hd = width // heads
    bsz, n = ids.shape
    tr = model.transformer

    h = tr.drop(tr.wte(ids) + tr.wpe(torch.arange(n, device=ids.device)))
    future_bias = (torch.tril(torch.ones(n, n, device=ids.device)) - 1.0) * 1e4
    future_bias = future_bias[None, None]

    maps = []
    for blk in tr.h:
        q, k, v = blk.attn.c_attn(blk.ln_1(h)).split(width, dim=2)
        q, k, v = (t.view(bsz, n, heads, hd).transpose(1, 2) for t in (q, k, v))
        denom = math.sqrt(hd) * temp
        logits = torch.matmul(q, k.transpose(-1, -2)) / denom
        logits = logits + future_bias
        probs = F.softmax(logits, dim=-1)
        ctx = torch.matmul(probs, v).transpose(1, 2).reshape(bsz, n, width)
        h = h + blk.attn.c_proj(ctx)
        h = h + blk.mlp(blk.ln_2(h))
        maps.append(probs[0].cpu().numpy())
    return maps


def check_against_library(model, vocab):
    ids = torch.randint(0, vocab, (1, SEQ))
    mine = replay_with_temperature(model, ids, 1.0)
    with torch.no_grad():
        ref = model(ids, output_attentions=True).attentions
    return max(float(np.abs(m - r[0].numpy()).max()) for m, r in zip(mine, ref))


def mean_decay(attn_head, lags=56, start=32):
    out = np.zeros(lags)
    for lag in range(lags):
        vals = [attn_head[i, i - lag] for i in range(max(start, lag), attn_head.shape[0])]
        out[lag] = np.mean(vals) if vals else 0.0
    return out


if __name__ == "__main__":
    gpt2 = GPT2LMHeadModel.from_pretrained("gpt2", attn_implementation="eager").eval()
    print("max |replay - library| at T=1:", check_against_library(gpt2, gpt2.config.vocab_size))
    for t in TEMPS:
        maps = replay_with_temperature(gpt2, torch.randint(0, gpt2.config.vocab_size, (1, SEQ)), t)
        print(t, [round(float(mean_decay(m[0])[1]), 4) for m in maps[:3]])
