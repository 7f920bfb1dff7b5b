# case: causal-decode-step-is-causal-single-query
# modelled-on: pytorch/pytorch https://github.com/pytorch/pytorch/issues/103082
# label: buggy
# pattern: a GPT generate loop with a KV cache keeps is_causal=True on the decode steps, where the query is one token (L = 1) and the keys are the whole prefix (S > 1)
# why: is_causal builds tril(ones(L, S)), which for L = 1 is [True, False, ..., False]: the new token attends only to the first token instead of the entire prefix
import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    def __init__(self, n_embd: int, n_head: int):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, x: torch.Tensor, past: tuple = None):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, -1).transpose(1, 2)
        k = k.view(B, T, self.n_head, -1).transpose(1, 2)
        v = v.view(B, T, self.n_head, -1).transpose(1, 2)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # expect: ATT008
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y), (k, v)


@torch.no_grad()
def generate(blocks: nn.ModuleList, embed: nn.Embedding, head: nn.Linear, idx: torch.Tensor, max_new_tokens: int) -> torch.Tensor:
    pasts = [None] * len(blocks)
    x_in = idx
    for _ in range(max_new_tokens):
        h = embed(x_in)
        for i, block in enumerate(blocks):
            h, pasts[i] = block(h, pasts[i])
        next_id = head(h[:, -1]).argmax(dim=-1, keepdim=True)
        idx = torch.cat([idx, next_id], dim=1)
        x_in = next_id  # decode step: a single query over the cached prefix
    return idx
