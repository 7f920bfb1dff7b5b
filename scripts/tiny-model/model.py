"""A tiny Llama-style decoder in PyTorch with HF LlamaForCausalLM's parameter names and layouts, so the
extension's RoPE decoder loader (src/models/decoder.ts) reads its weights as it reads any Llama checkpoint:

  model.embed_tokens.weight [V, E];
  model.layers.{i}.input_layernorm.weight [E], .post_attention_layernorm.weight [E]   (RMSNorm);
  model.layers.{i}.self_attn.{q,k,v}_proj.weight [H·hd, E], .o_proj.weight [E, H·hd]  (nn.Linear: [out, in]);
  model.layers.{i}.mlp.{gate,up}_proj.weight [I, E], .down_proj.weight [E, I]         (SwiGLU);
  model.norm.weight [E]; lm_head tied to embed_tokens (not stored).

Rotary position embeddings (RoPE, HF's rotate_half layout) rotate q and k by their positions, so "attend to
the token one back" is one pattern for every position rather than one learned per absolute position.
Attention is written out (softmax(q·kᵀ/√hd + causal)) so the probabilities can be returned for the reference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass(frozen=True)
class TinyConfig:
    vocab_size: int
    max_positions: int
    hidden: int
    n_layer: int
    n_head: int
    intermediate: int
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-5
    attention_bias: bool = True

    @property
    def head_dim(self) -> int:
        return self.hidden // self.n_head

    def hf_config(self) -> dict:
        """config.json as HF LlamaConfig writes it (the fields the extension reads, and model_type)."""
        return {
            "architectures": ["LlamaForCausalLM"],
            "model_type": "llama",
            "vocab_size": self.vocab_size,
            "max_position_embeddings": self.max_positions,
            "hidden_size": self.hidden,
            "intermediate_size": self.intermediate,
            "num_hidden_layers": self.n_layer,
            "num_attention_heads": self.n_head,
            "num_key_value_heads": self.n_head,
            "head_dim": self.head_dim,
            "hidden_act": "silu",
            "rms_norm_eps": self.rms_norm_eps,
            "rope_theta": self.rope_theta,
            "rope_scaling": None,
            "attention_bias": self.attention_bias,
            "mlp_bias": False,
            "tie_word_embeddings": True,
            "bos_token_id": self.vocab_size - 1,
            "eos_token_id": self.vocab_size - 1,
            "torch_dtype": "float32",
        }


class RmsNorm(nn.Module):
    def __init__(self, n: int, eps: float):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps))


def rope_tables(c: TinyConfig, T: int) -> tuple[torch.Tensor, torch.Tensor]:
    """cos, sin (T, hd) as HF Llama computes them: float32 angles position·θ^(−2i/hd), the hd/2 angles twice."""
    inv_freq = 1.0 / (c.rope_theta ** (torch.arange(0, c.head_dim, 2, dtype=torch.int64).float() / c.head_dim))  # (hd/2,)
    freqs = torch.arange(T, dtype=torch.float32)[:, None] * inv_freq[None, :]  # (T, hd/2)
    emb = torch.cat([freqs, freqs], dim=-1)  # (T, hd)
    return emb.cos(), emb.sin()


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


class Attention(nn.Module):
    def __init__(self, c: TinyConfig):
        super().__init__()
        self.n_head = c.n_head
        self.hd = c.head_dim
        self.q_proj = nn.Linear(c.hidden, c.n_head * c.head_dim, bias=c.attention_bias)
        self.k_proj = nn.Linear(c.hidden, c.n_head * c.head_dim, bias=c.attention_bias)
        self.v_proj = nn.Linear(c.hidden, c.n_head * c.head_dim, bias=c.attention_bias)
        self.o_proj = nn.Linear(c.n_head * c.head_dim, c.hidden, bias=c.attention_bias)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        B, T, _ = x.shape
        q, k, v = (p(x).view(B, T, self.n_head, self.hd).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))  # (B, H, T, hd)
        q = q * cos + rotate_half(q) * sin  # (B, H, T, hd)
        k = k * cos + rotate_half(k) * sin
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.hd)  # (B, H, T, T)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        probs = scores.masked_fill(~causal, float("-inf")).softmax(dim=-1)  # (B, H, T, T)
        out = (probs @ v).transpose(1, 2).reshape(B, T, self.n_head * self.hd)  # (B, T, H·hd)
        return self.o_proj(out), probs


class Mlp(nn.Module):
    def __init__(self, c: TinyConfig):
        super().__init__()
        self.gate_proj = nn.Linear(c.hidden, c.intermediate, bias=False)
        self.up_proj = nn.Linear(c.hidden, c.intermediate, bias=False)
        self.down_proj = nn.Linear(c.intermediate, c.hidden, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))  # (B, T, E)


class Block(nn.Module):
    def __init__(self, c: TinyConfig):
        super().__init__()
        self.input_layernorm = RmsNorm(c.hidden, c.rms_norm_eps)
        self.self_attn = Attention(c)
        self.post_attention_layernorm = RmsNorm(c.hidden, c.rms_norm_eps)
        self.mlp = Mlp(c)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        a, probs = self.self_attn(self.input_layernorm(x), cos, sin)
        x = x + a
        return x + self.mlp(self.post_attention_layernorm(x)), probs


class Decoder(nn.Module):
    """HF's LlamaModel part: names under it become model.*."""

    def __init__(self, c: TinyConfig):
        super().__init__()
        self.embed_tokens = nn.Embedding(c.vocab_size, c.hidden)
        self.layers = nn.ModuleList(Block(c) for _ in range(c.n_layer))
        self.norm = RmsNorm(c.hidden, c.rms_norm_eps)


class TinyLlama(nn.Module):
    def __init__(self, c: TinyConfig):
        super().__init__()
        self.config = c
        self.model = Decoder(c)

    def init_weights(self, generator: torch.Generator) -> None:
        """Fan-in initialisation: a projection with n inputs draws N(0, 1/n), the projections that write into the
        residual stream (o_proj, down_proj) also divided by √(2L); embeddings N(0, 1/E) (the tied lm_head reads
        them after an RMSNorm, so logits start at about unit scale); biases 0; RMSNorm weights 1."""
        for name, p in self.named_parameters():
            if name.endswith("norm.weight"):
                nn.init.ones_(p)
                continue
            if name.endswith(".bias"):
                nn.init.zeros_(p)
                continue
            std = 1 / math.sqrt(p.shape[1])  # nn.Linear weights are [out, in]; embeddings [V, E]
            if name.endswith("o_proj.weight") or name.endswith("down_proj.weight"):
                std /= math.sqrt(2 * self.config.n_layer)
            with torch.no_grad():
                p.copy_(torch.randn(p.shape, generator=generator) * std)

    @torch.no_grad()
    def start_previous_token_head(self, layer: int, head: int, amplitude: float, pairs: int = 4) -> None:
        """Sets one head's q and k biases so that, by RoPE alone, its query at i scores the key at i − 1 highest:
        on each of the `pairs` fastest rotary pairs (d, d + hd/2), turning at ω_d per position, k's bias is
        (A, 0) and q's is A·(cos ω_d, −sin ω_d), so their product after rotation is A²·cos((i − j − 1)·ω_d).
        Training is free to change or undo it; only the starting point differs."""
        attn = self.model.layers[layer].self_attn
        hd = self.config.head_dim
        half = hd // 2
        inv_freq = 1.0 / (self.config.rope_theta ** (torch.arange(0, hd, 2, dtype=torch.int64).float() / hd))  # (hd/2,)
        q = torch.zeros(hd)
        k = torch.zeros(hd)
        for d in range(pairs):
            w = float(inv_freq[d])
            q[d], q[d + half] = amplitude * math.cos(w), -amplitude * math.sin(w)
            k[d] = amplitude
        attn.q_proj.bias[head * hd : (head + 1) * hd] = q
        attn.k_proj.bias[head * hd : (head + 1) * hd] = k

    def _run(self, ids: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """ids (B, T) → the final RMSNorm's output (B, T, E) and per layer the attention probabilities (B, H, T, T)."""
        T = ids.shape[1]
        cos, sin = rope_tables(self.config, T)  # (T, hd) each
        x = self.model.embed_tokens(ids)  # (B, T, E)
        attentions = []
        for block in self.model.layers:
            x, probs = block(x, cos, sin)
            attentions.append(probs)
        return self.model.norm(x), attentions

    def hidden_states(self, ids: torch.Tensor) -> torch.Tensor:
        """ids (B, T) → what the tied lm_head reads (B, T, E), for a softmax over a subset of the vocabulary."""
        return self._run(ids)[0]

    def forward(self, ids: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """ids (B, T) → logits (B, T, V) and per layer the attention probabilities (B, H, T, T)."""
        h, attentions = self._run(ids)  # (B, T, E)
        return h @ self.model.embed_tokens.weight.T, attentions  # (B, T, V)

    def named_tensors(self) -> dict[str, torch.Tensor]:
        """The checkpoint's tensors under HF LlamaForCausalLM names (lm_head is tied, so not stored)."""
        return {name: p.detach().contiguous() for name, p in self.named_parameters()}
