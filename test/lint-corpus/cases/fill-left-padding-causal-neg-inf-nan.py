# case: fill-left-padding-causal-neg-inf-nan
# modelled-on: unslothai/unsloth https://github.com/unslothai/unsloth/pull/9848
# label: buggy
# pattern: batched generation with left padding: an eager attention combines the causal mask with the padding mask (both True = attend) and fills everything else with -inf
# why: a left-pad query at position i may only see keys j <= i, and those are all padding, so its whole row is -inf and softmax returns NaN, which then spreads through the next layer's 0 * NaN
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderAttention(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.q_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.k_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.v_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.o_proj = nn.Linear(hidden_size, hidden_size, bias=False)

    def forward(self, hidden_states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        # hidden_states: (B, T, D); attention_mask: (B, T) tokenizer mask, 0 at the LEFT padding
        B, T, _ = hidden_states.shape
        q = self.q_proj(hidden_states).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)

        causal = torch.ones(T, T, dtype=torch.bool, device=hidden_states.device).tril()  # (T, T)
        allowed = causal[None, None] & attention_mask.bool()[:, None, None, :]  # (B, 1, T, T)

        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(~allowed, float("-inf"))  # expect: ATT007
        probs = F.softmax(scores, dim=-1)
        out = (probs @ v).transpose(1, 2).reshape(B, T, -1)
        return self.o_proj(out)


def left_pad(batch_ids: list, pad_id: int):
    longest = max(len(ids) for ids in batch_ids)
    input_ids = torch.full((len(batch_ids), longest), pad_id)
    attention_mask = torch.zeros((len(batch_ids), longest), dtype=torch.long)
    for row, ids in enumerate(batch_ids):
        input_ids[row, longest - len(ids):] = torch.tensor(ids)
        attention_mask[row, longest - len(ids):] = 1
    return input_ids, attention_mask
