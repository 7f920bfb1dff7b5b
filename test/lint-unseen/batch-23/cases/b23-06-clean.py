# case: b23-06-clean
# modelled-on: vinisique/xg-set-transformer https://github.com/vinisique/xg-set-transformer/commit/21fbd37ffc1fe5dd4bcea8767978bffeb47dc7df
# label: correct
# class: clean
# pattern: an expected-goals Set Transformer on a shot's freeze-frame: the loader turns a presence mask into pad = (1 - present) > 0.5 with a False column for the shooter, the model prepends a [CLS] token (another False column) and runs nn.TransformerEncoder(batch_first, norm_first) with src_key_padding_mask; an analysis function replays each layer's attention by hand from in_proj_weight (q @ k.transpose(-2, -1) / dk ** 0.5, masked_fill(pad[:, None, None, :], -inf), softmax(dim=-1)) so that it can zero the [CLS] row's weights on chosen players after the softmax and renormalise that row, and asserts the replay matches the model
# why: correct: key_padding_mask is True where a key is ignored and pad is True exactly on the empty slots, the same mask the replay fills with -inf; dk is the per-head width d // heads, as inside nn.MultiheadAttention; the post-softmax masked_fill(..., 0.0) is a deliberate ablation on the [CLS] row that is renormalised to sum to one right after (and never empties it: the [CLS] column is never suppressed), not a padding mask applied too late
# looks-like: ATT002, ATT004, ATT005, ATT006, ATT007
# source: https://github.com/vinisique/xg-set-transformer https://github.com/vinisique/xg-set-transformer/commit/21fbd37ffc1fe5dd4bcea8767978bffeb47dc7df poc/xg_base.py
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_tokens(shooter: np.ndarray, others: np.ndarray, present: np.ndarray) -> dict:
    """shooter (N, 1, F), others (N, 21, F), present (N, 21) with 1 where a player is in the frame."""
    n = len(present)
    return {
        "tok": np.concatenate([shooter, others], 1).astype(np.float32),
        "pad": np.concatenate([np.zeros((n, 1)), 1 - present], 1) > 0.5,  # True = empty slot
    }


class SetFormer(nn.Module):
    """[CLS] + encoder without positions (the scene is a set) + key padding on the empty slots."""

    def __init__(self, dim=48, drop=0.1, n_feat=14, layers=2, heads=4):
        super().__init__()
        self.proj = nn.Linear(n_feat, dim)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, drop, batch_first=True, norm_first=True)
        self.tf = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(dim, 1)

    def forward(self, x, pad):
        h = torch.cat([self.cls.expand(len(x), -1, -1), self.proj(x)], 1)
        p = torch.cat([torch.zeros(len(x), 1, dtype=torch.bool), pad], 1)
        return self.head(self.tf(h, src_key_padding_mask=p)[:, 0]).squeeze(-1)


@torch.no_grad()
def forward_with_ablation(model: SetFormer, x, pad, suppress=None, check=False):
    """Replays the model by hand; where suppress [B, 23] is True the [CLS] row may not look at that token."""
    model.eval()
    h = torch.cat([model.cls.expand(len(x), -1, -1), model.proj(x)], 1)
    p = torch.cat([torch.zeros(len(x), 1, dtype=torch.bool), pad], 1)
    b, n, d = h.shape
    for layer in model.tf.layers:
        mha = layer.self_attn
        heads = mha.num_heads
        dk = d // heads
        z = layer.norm1(h)
        q, k, v = F.linear(z, mha.in_proj_weight, mha.in_proj_bias).chunk(3, dim=-1)
        split = lambda t: t.view(b, n, heads, dk).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)

        scores = (q @ k.transpose(-2, -1)) / (dk**0.5)
        scores = scores.masked_fill(p[:, None, None, :], float("-inf"))
        attn = torch.softmax(scores, dim=-1)

        if suppress is not None:
            cut = suppress[:, None, :].expand(b, heads, n)
            row = attn[:, :, 0, :].masked_fill(cut, 0.0)
            attn = attn.clone()
            attn[:, :, 0, :] = row / row.sum(-1, keepdim=True).clamp(min=1e-9)

        out = (attn @ v).transpose(1, 2).contiguous().view(b, n, d)
        h = h + mha.out_proj(out)
        h = h + layer._ff_block(layer.norm2(h))

    logit = model.head(h[:, 0]).squeeze(-1)
    if check:
        err = (logit - model(x, pad)).abs().max().item()
        assert err < 1e-4, f"replay diverged from the model ({err:.2e})"
    return logit
