# case: t12e-05-clean
# modelled-on: kanishkez/Paper-implementations https://github.com/kanishkez/Paper-implementations/commit/891c4beac057222db2992bafca1d904e277e42a1
# label: correct
# class: clean
# pattern: a paper-implementation script that demonstrates a KV cache by hand: tokens are fed one at a time, each step's key and value (B, heads, 1, head_dim) are concatenated onto the cache along dim 2, and the single query is scored against every cached key with q @ cached_k.transpose(-2, -1) / head_dim ** 0.5 and a softmax over the last axis, with no mask; an nn.MultiheadAttention is built only to read its num_heads
# why: correct: with one query per step and only past and current keys in the cache, no future key exists, so no causal mask is needed (a top-left causal mask would be the bug here); the scale is the per-head width D // num_heads; transpose(-2, -1) swaps the last two axes of the 4-D cache; what a naive linter could misread: ATT008 (a decoder step with a cache and no causal mask), ATT004 (a scale computed in the loop from D // num_heads), ATT005
# looks-like: ATT004, ATT005, ATT008
# source: https://github.com/kanishkez/Paper-implementations https://github.com/kanishkez/Paper-implementations/commit/891c4beac057222db2992bafca1d904e277e42a1 kvcache.py
import torch
import torch.nn as nn
import torch.nn.functional as F

mha = nn.MultiheadAttention(embed_dim=512, num_heads=8, batch_first=True)
q_proj = nn.Linear(512, 512)
k_proj = nn.Linear(512, 512)
v_proj = nn.Linear(512, 512)
out_proj = nn.Linear(512, 512)


def decode_stream(tokens: torch.Tensor) -> torch.Tensor:
    cache_k, cache_v = None, None
    outputs = []
    for t in range(tokens.size(1)):
        x = tokens[:, t : t + 1, :]
        q, k, v = q_proj(x), k_proj(x), v_proj(x)  # (B, 1, D)
        B, _, D = q.shape
        n_heads = mha.num_heads
        head_dim = D // n_heads
        q = q.view(B, 1, n_heads, head_dim).transpose(1, 2)
        k = k.view(B, 1, n_heads, head_dim).transpose(1, 2)
        v = v.view(B, 1, n_heads, head_dim).transpose(1, 2)
        if cache_k is None:
            cache_k, cache_v = k, v
        else:
            cache_k = torch.cat([cache_k, k], dim=2)
            cache_v = torch.cat([cache_v, v], dim=2)
        scores = torch.matmul(q, cache_k.transpose(-2, -1)) / (head_dim ** 0.5)
        probs = F.softmax(scores, dim=-1)
        out = torch.matmul(probs, cache_v).transpose(1, 2).contiguous().view(B, 1, D)
        outputs.append(out_proj(out))
    return torch.cat(outputs, dim=1)


if __name__ == "__main__":
    print(decode_stream(torch.randn(1, 5, 512)).shape)
