# case: b52-05-clean
# modelled-on: Lumin-Science/Nano-ProteinLM https://github.com/Lumin-Science/Nano-ProteinLM/commit/2277015d87af4277af509f343499aaea20a99089
# label: correct
# class: clean
# pattern: the packed (padding-free) path of a bidirectional protein language model: the boolean mask (True = real token) is used once to select the real tokens of the padded batch into one flat (tokens, heads, head_dim) stream; per-sequence lengths become cumulative offsets, and every layer calls a variable-length flash kernel with those offsets for queries and keys, dropout 0, is_causal False and an explicit softmax scale of head_dim ** -0.5; rotary angles are taken from each token's original position; the outputs are scattered back into the padded layout with zeros at the padding
# why: correct: with variable-length attention the sequence boundaries are the mask: each packed sequence attends only within its own [cu[i], cu[i+1]) span, and padding is never in the stream, so no attn_mask is passed; the model is a masked language model, so is_causal=False is intended; head_dim ** -0.5 is 1/sqrt(d_k) for these heads (the kernel has no default to fall back on); the mask is True on real tokens, which is exactly what nonzero() must select; the zero rows written back at padding positions are outputs for padding, never attended by anything
# looks-like: ATT002, ATT003, ATT004, ATT008
# source: https://github.com/Lumin-Science/Nano-ProteinLM https://github.com/Lumin-Science/Nano-ProteinLM/commit/2277015d87af4277af509f343499aaea20a99089 nano_protein/model.py
import torch
from torch import nn


def varlen_attention(q, k, v, cu_lens, max_len):
    """q, k, v: (total_tokens, heads, head_dim) of concatenated sequences; cu_lens: (batch + 1,) int32."""
    if q.device.type != "cuda" or q.dim() != 3:
        raise RuntimeError("packed attention needs CUDA and (tokens, heads, dim) inputs")
    if q.dtype == torch.float32 and torch.is_autocast_enabled("cuda"):
        half = torch.get_autocast_dtype("cuda")
        q, k, v = q.to(half), k.to(half), v.to(half)
    if q.dtype not in (torch.float16, torch.bfloat16):
        raise RuntimeError("packed attention runs in fp16 or bf16")
    d = q.shape[-1]
    out = torch.ops.aten._flash_attention_forward(
        q, k, v, cu_lens, cu_lens, max_len, max_len, 0.0, False, False, scale=d ** -0.5
    )
    return out[0]


def pack(real: torch.Tensor):
    """Indices of real tokens in the flattened batch, their positions, and cumulative lengths."""
    real = real.bool()
    b, n = real.shape
    idx = real.reshape(-1).nonzero(as_tuple=False).squeeze(-1)
    pos = torch.arange(n, device=real.device).expand(b, n).reshape(-1).index_select(0, idx)
    cu = torch.zeros(b + 1, dtype=torch.int32, device=real.device)
    torch.cumsum(real.sum(dim=1, dtype=torch.int32), dim=0, out=cu[1:])
    return idx, pos, cu


class PackedSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        self.heads, self.head_dim = heads, width // heads
        self.norm = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width, bias=False)
        self.out = nn.Linear(width, width, bias=False)
        inv = 1.0 / (10_000 ** (torch.arange(0, self.head_dim, 2, dtype=torch.float32) / self.head_dim))
        self.register_buffer("inv_freq", inv, persistent=False)

    def rotate(self, x, pos):
        ang = torch.outer(pos.float(), self.inv_freq)
        cos = torch.cat((ang.cos(), ang.cos()), -1)[:, None, :].to(x.dtype)
        sin = torch.cat((ang.sin(), ang.sin()), -1)[:, None, :].to(x.dtype)
        a, b = x.chunk(2, dim=-1)
        return x * cos + torch.cat((-b, a), dim=-1) * sin

    def forward(self, h, pos, cu, max_len):
        q, k, v = self.qkv(self.norm(h)).chunk(3, dim=-1)
        q = self.rotate(q.view(-1, self.heads, self.head_dim), pos)
        k = self.rotate(k.view(-1, self.heads, self.head_dim), pos)
        ctx = varlen_attention(q, k, v.view(-1, self.heads, self.head_dim), cu, max_len)
        return self.out(ctx.reshape(h.shape[0], -1))


class PackedEncoder(nn.Module):
    def __init__(self, vocab: int, width: int, heads: int, depth: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.layers = nn.ModuleList([PackedSelfAttention(width, heads) for _ in range(depth)])
        self.head = nn.Linear(width, vocab)

    def forward(self, ids: torch.Tensor, real: torch.Tensor) -> torch.Tensor:
        b, n = ids.shape
        idx, pos, cu = pack(real)
        h = self.embed(ids.reshape(-1).index_select(0, idx))
        for layer in self.layers:
            h = h + layer(h, pos, cu, n)
        logits = self.head(h)
        dense = logits.new_zeros(b * n, logits.shape[-1]).index_copy(0, idx, logits)
        return dense.view(b, n, -1)
