"""Decoder stack and the one-token-per-call forward used by the sampling loop."""
import torch
import torch.nn.functional as F
from torch import nn

from llama2.layers import ModelArgs, SelfAttention


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x32 = x.float()
        return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)).type_as(x) * self.weight


def precompute_theta_pos_frequencies(head_dim: int, seq_len: int, theta: float = 10000.0) -> torch.Tensor:
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
    freqs = torch.outer(torch.arange(seq_len).float(), inv)
    return torch.polar(torch.ones_like(freqs), freqs)  # (seq_len, head_dim / 2)


class EncoderLayer(nn.Module):
    def __init__(self, args: ModelArgs) -> None:
        super().__init__()
        hidden = 256 * ((int(2 * 4 * args.dim / 3) + 255) // 256)
        self.attention = SelfAttention(args)
        self.w1 = nn.Linear(args.dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, args.dim, bias=False)
        self.w3 = nn.Linear(args.dim, hidden, bias=False)
        self.attention_norm = RMSNorm(args.dim, args.norm_eps)
        self.ffn_norm = RMSNorm(args.dim, args.norm_eps)

    def forward(self, x, freqs_complex, mask):
        h = x + self.attention(self.attention_norm(x), freqs_complex, mask)
        y = self.ffn_norm(h)
        return h + self.w2(F.silu(self.w1(y)) * self.w3(y))


class Transformer(nn.Module):
    def __init__(self, args: ModelArgs) -> None:
        super().__init__()
        self.args = args
        self.tok_embeddings = nn.Embedding(args.vocab_size, args.dim)
        self.layers = nn.ModuleList([EncoderLayer(args) for _ in range(args.n_layers)])
        self.norm = RMSNorm(args.dim, args.norm_eps)
        self.output = nn.Linear(args.dim, args.vocab_size, bias=False)
        self.freqs_complex = precompute_theta_pos_frequencies(args.dim // args.n_heads, args.max_seq_len * 2)

    def forward(self, tokens: torch.Tensor, start_pos: int) -> torch.Tensor:
        batch_size, seq_len = tokens.shape
        assert seq_len == 1, "Only one token at a time can be processed"
        h = self.tok_embeddings(tokens)
        freqs_complex = self.freqs_complex.to(h.device)[start_pos:start_pos + seq_len]

        mask = torch.full((seq_len, seq_len), float("-inf"), device=h.device)
        mask = torch.triu(mask, diagonal=1)  # additive: 0 on allowed keys, -inf above the diagonal

        for layer in self.layers:
            h = layer(h, freqs_complex, mask)
        return self.output(self.norm(h)).float()
