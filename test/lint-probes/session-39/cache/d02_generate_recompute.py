import torch
import torch.nn.functional as F


@torch.no_grad()
def generate(embed, qkv, head, ids, steps, past_key_values=None):
    # no KV cache: the whole sequence is recomputed at every step (past_key_values unused, kept for API symmetry)
    for _ in range(steps):
        x = embed(ids)
        q, k, v = qkv(x).chunk(3, dim=-1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        ids = torch.cat([ids, head(y[:, -1]).argmax(-1, keepdim=True)], dim=1)
    return ids
