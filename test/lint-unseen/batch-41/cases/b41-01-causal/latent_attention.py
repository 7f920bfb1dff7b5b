# case: b41-01-causal
# modelled-on: shreyansh26/multihead-latent-attention https://github.com/shreyansh26/multihead-latent-attention/commit/ef8eac6125011c047a72585e93e9a344743863ab
# label: buggy
# class: real-bug
# pattern: multi-head latent attention (a folder: the attention helpers, the latent KV cache and the module): keys and values are rebuilt from a low-rank latent that a preallocated cache extends on every call, a single rotary key is shared by all heads, and the module hands q / k / v to a helper that calls F.scaled_dot_product_attention(is_causal=causal); the script's decode simulation runs the prompt and then one token at a time through the same module with the cache attached and causal=True
# why: buggy: in the decode steps the queries are the new token while the keys are every cached position plus it; SDPA's is_causal=True builds a top-left aligned triangle (PyTorch documents it), so the single new query keeps only key 0 and ignores the rest of the prefix, instead of seeing all of it (bottom-right alignment); the module itself notes that under the cache the key length differs from the query length, and the README presents the cache-based decode simulation as part of the reference implementation; no correcting commit exists (a real bug without a fixed form)
# source: https://github.com/shreyansh26/multihead-latent-attention https://github.com/shreyansh26/multihead-latent-attention/commit/ef8eac6125011c047a72585e93e9a344743863ab mla.py
import torch
from torch import nn

from attention import fused_attention
from cache import LatentCache


def rotary_table(dim, length, base=10000.0):
    inv = 1.0 / base ** (torch.arange(0, dim, 2).float() / dim)
    angles = torch.outer(torch.arange(length).float(), inv)
    return torch.polar(torch.ones_like(angles), angles)


def rotate(x_bshd, table, offset):
    pairs = torch.view_as_complex(x_bshd.float().reshape(*x_bshd.shape[:-1], -1, 2))
    turned = pairs * table[offset : offset + x_bshd.shape[1]][None, :, None, :]
    return torch.view_as_real(turned).flatten(3).type_as(x_bshd)


class LatentAttention(nn.Module):
    def __init__(self, dim, n_heads, kv_rank, q_rank, nope_dim, rope_dim, v_dim, max_len):
        super().__init__()
        self.n_heads, self.nope_dim, self.v_dim = n_heads, nope_dim, v_dim
        self.register_buffer("table", rotary_table(rope_dim, max_len), persistent=False)
        self.kv_down = nn.Linear(dim, kv_rank, bias=False)
        self.k_rope = nn.Linear(dim, rope_dim, bias=False)
        self.k_up = nn.Linear(kv_rank, n_heads * nope_dim, bias=False)
        self.v_up = nn.Linear(kv_rank, n_heads * v_dim, bias=False)
        self.q_down = nn.Linear(dim, q_rank, bias=False)
        self.q_rope = nn.Linear(q_rank, n_heads * rope_dim, bias=False)
        self.q_up = nn.Linear(q_rank, n_heads * nope_dim, bias=False)
        self.proj = nn.Linear(n_heads * v_dim, dim, bias=False)

    def forward(self, x, cache=None, causal=False):
        b, s, _ = x.shape
        h = self.n_heads
        offset = 0 if cache is None else cache.filled
        latent = self.kv_down(x)
        k_pe = rotate(self.k_rope(x).view(b, s, 1, -1), self.table, offset).transpose(1, 2)
        if cache is not None:
            latent, k_pe = cache.append(latent, k_pe)
        total = latent.shape[1]  # with the cache attached this is longer than s
        k_nope = self.k_up(latent).view(b, total, h, self.nope_dim).transpose(1, 2)
        keys = torch.cat([k_pe.expand(-1, h, -1, -1), k_nope], dim=-1)
        values = self.v_up(latent).view(b, total, h, self.v_dim).transpose(1, 2)

        cq = self.q_down(x)
        q_pe = rotate(self.q_rope(cq).view(b, s, h, -1), self.table, offset).transpose(1, 2)
        q_nope = self.q_up(cq).view(b, s, h, self.nope_dim).transpose(1, 2)
        queries = torch.cat([q_pe, q_nope], dim=-1)
        return self.proj(fused_attention(queries, keys, values, causal=causal))


if __name__ == "__main__":
    dim, prompt, steps = 256, 48, 8
    block = LatentAttention(dim, n_heads=8, kv_rank=64, q_rank=96, nope_dim=32, rope_dim=16, v_dim=32, max_len=128)
    store = LatentCache(batch=4, capacity=prompt + steps, latent_dim=64, rope_dim=16)
    with torch.no_grad():
        block(torch.randn(4, prompt, dim), cache=store, causal=True)
        for _ in range(steps):
            block(torch.randn(4, 1, dim), cache=store, causal=True)
    assert store.filled == prompt + steps
    print("prefill and cached decode ran")
