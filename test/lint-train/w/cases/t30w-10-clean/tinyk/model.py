# case: t30w-10-clean
# modelled-on: caicaigogo/llm-scratch-demo https://github.com/caicaigogo/llm-scratch-demo/commit/09df4672009a6e860b2152544d36b35fd3a94781
# label: correct
# class: clean
# pattern: a from-scratch LLaMA-style model ("Tiny-K") with grouped-query attention: the model registers once an additive causal mask of shape (1, 1, max_len, max_len) made as torch.triu(torch.full(..., torch.finfo(torch.float16).min), diagonal=1) whatever the model dtype, and every layer adds causal_mask[:, :, :T, :T] to the scaled scores before a softmax computed in float32 (dtype=torch.float32) and cast back; the collator in another module right-pads with an attention_mask the model never reads (labels -100 on the padding); generate() re-runs the whole window every step without a KV cache and keeps only the last logits
# why: correct: triu(diagonal=1) keeps the large negative value strictly above the diagonal, so the added mask hides exactly the future keys and leaves 0 elsewhere; the float16 minimum (-65504) is finite in float32 and bfloat16, the buffer follows the model's dtype, and after the addition the softmax runs in float32 where exp of it is 0 (a score pushed past the float16 range only becomes -inf on a future key, while the diagonal always stays finite); with right padding and a causal mask no real token sees a PAD key, and the PAD positions carry no loss; without a cache the square top-left slice of the mask is the right one
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/caicaigogo/llm-scratch-demo https://github.com/caicaigogo/llm-scratch-demo/commit/09df4672009a6e860b2152544d36b35fd3a94781 src/llm_scratch/k_model.py
import torch
from torch import nn


def precompute_causal_mask(max_seq_len: int, dtype: torch.dtype | None = None) -> torch.Tensor:
    dtype = torch.float16 if dtype is None else dtype
    mask = torch.full((1, 1, max_seq_len, max_seq_len), torch.finfo(dtype).min)
    return torch.triu(mask, diagonal=1)  # 0 on and below the diagonal


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    b, h_kv, t, d = x.shape
    if n_rep == 1:
        return x
    return x[:, :, None].expand(b, h_kv, n_rep, t, d).reshape(b, h_kv * n_rep, t, d)


def eager_attention_forward(module, query, key, value, causal_mask, scaling: float):
    seq_len = query.shape[2]
    key = repeat_kv(key, module.num_key_value_groups)
    value = repeat_kv(value, module.num_key_value_groups)
    scores = torch.matmul(query, key.transpose(2, 3)) * scaling
    scores = scores + causal_mask[:, :, :seq_len, :seq_len]
    weights = nn.functional.softmax(scores, dim=-1, dtype=torch.float32).to(query.dtype)
    return torch.matmul(weights, value).transpose(1, 2).contiguous()


class Attention(nn.Module):
    def __init__(self, hidden: int = 768, heads: int = 16, kv_heads: int = 8) -> None:
        super().__init__()
        self.head_dim = hidden // heads
        self.num_key_value_groups = heads // kv_heads
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(hidden, heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(heads * self.head_dim, hidden, bias=False)

    def forward(self, x: torch.Tensor, causal_mask: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        shape = (b, t, -1, self.head_dim)
        q = self.q_proj(x).view(shape).transpose(1, 2)
        k = self.k_proj(x).view(shape).transpose(1, 2)
        v = self.v_proj(x).view(shape).transpose(1, 2)
        out = eager_attention_forward(self, q, k, v, causal_mask, self.scaling)
        return self.o_proj(out.reshape(b, t, -1))


class TinyK(nn.Module):
    def __init__(self, vocab: int = 6144, hidden: int = 768, layers: int = 12, max_len: int = 512) -> None:
        super().__init__()
        self.max_len = max_len
        self.embed = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([Attention(hidden) for _ in range(layers)])
        self.norms = nn.ModuleList([nn.RMSNorm(hidden) for _ in range(layers)])
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
        self.register_buffer("causal_mask", precompute_causal_mask(max_len), persistent=False)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        h = self.embed(input_ids)
        for norm, attn in zip(self.norms, self.layers):
            h = h + attn(norm(h), self.causal_mask)
        return self.lm_head(h)

    @torch.inference_mode()
    def generate(self, input_ids: torch.Tensor, max_new_tokens: int = 64, temperature: float = 1.0) -> torch.Tensor:
        for _ in range(max_new_tokens):
            window = input_ids[:, -self.max_len:]  # no KV cache: the whole window every step
            logits = self(window)[:, -1, :] / temperature
            nxt = torch.multinomial(torch.softmax(logits, dim=-1), 1)
            input_ids = torch.cat([input_ids, nxt], dim=1)
        return input_ids
