# case: t23p-06-scale
# modelled-on: LukeRoberson/chess-transformer https://github.com/LukeRoberson/chess-transformer/commit/906b343ea0ad94435ae4862ae939bfe18145b9ae
# label: buggy
# class: real-bug
# pattern: a GPT-style chess move model built from one module per head (nn.ModuleList of heads, outputs concatenated and projected): each head projects to head_size = n_embd // n_head, computes q @ k.transpose(-2, -1) and then multiplies the scores by k.shape[-1] ** 0.5, masks the future with a registered tril buffer (masked_fill(tril == 0, -inf)) and takes softmax(dim=-1); the docstring says the scores are scaled by the square root of the key dimension to keep the softmax from saturating
# why: buggy: the scores are multiplied by sqrt(head_size) instead of divided by it (** 0.5 where ** -0.5 was meant), so the logits are head_size times larger than the paper's scaling and the softmax saturates, the opposite of what the comment intends; no fix exists in the repository's history. The mask, the transpose and the softmax axis are right
# source: https://github.com/LukeRoberson/chess-transformer https://github.com/LukeRoberson/chess-transformer/commit/906b343ea0ad94435ae4862ae939bfe18145b9ae transformer_blocks.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    """One head of causal self-attention."""

    def __init__(self, config, head_size: int) -> None:
        super().__init__()
        self.key = nn.Linear(config.n_embd, head_size, bias=True)
        self.query = nn.Linear(config.n_embd, head_size, bias=True)
        self.value = nn.Linear(config.n_embd, head_size, bias=True)
        # look-ahead mask: lower triangle of ones
        self.register_buffer("tril", torch.tril(torch.ones(config.block_size, config.block_size)))
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (B, T, C) -> (B, T, head_size)
        q = self.query(x)
        k = self.key(x)
        v = self.value(x)

        # affinities, scaled by the square root of the key width so the softmax does not saturate
        scores = q @ k.transpose(-2, -1)
        scaled = scores * k.shape[-1] ** 0.5  # expect: ATT004

        _, t, _ = x.shape
        masked = scaled.masked_fill(self.tril[:t, :t] == 0, float("-inf"))
        weights = F.softmax(masked, dim=-1)
        weights = self.dropout(weights)
        return weights @ v


class MultiHeadAttention(nn.Module):
    def __init__(self, config, head_size: int) -> None:
        super().__init__()
        self.heads = nn.ModuleList([Head(config, head_size) for _ in range(config.n_head)])
        self.proj = nn.Linear(head_size * config.n_head, config.n_embd)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.cat([h(x) for h in self.heads], dim=-1)
        return self.dropout(self.proj(out))


class Block(nn.Module):
    def __init__(self, config) -> None:
        super().__init__()
        head_size = config.n_embd // config.n_head
        self.sa = MultiHeadAttention(config, head_size)
        self.ff = nn.Sequential(
            nn.Linear(config.n_embd, 4 * config.n_embd), nn.ReLU(), nn.Linear(4 * config.n_embd, config.n_embd)
        )
        self.ln1 = nn.LayerNorm(config.n_embd)
        self.ln2 = nn.LayerNorm(config.n_embd)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.sa(self.ln1(x))
        return x + self.ff(self.ln2(x))
