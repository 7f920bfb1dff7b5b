# case: b25-01-mask
# modelled-on: cklxx/mini-llm https://github.com/cklxx/mini-llm/commit/449a6190e39fe237af076c06b44b149a34de084c
# label: buggy
# class: real-bug
# pattern: a small GPT with grouped-query attention that calls F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask); the model builds the mask itself: a boolean causal matrix torch.triu(ones, diagonal=1) (True above the diagonal, i.e. True = future, to be blocked), OR-ed with the inverted padding mask ~attention_mask (True = padding), and hands that combined "True = blocked" tensor to every block
# why: buggy: SDPA reads a boolean attn_mask as True = may attend, so the combined mask lets each query see only future and padding keys and hides its own past (the first query sees nothing but future keys); the docstring even says PyTorch wants True = forbidden. The author's next commit converts the boolean mask before the call (that conversion is case b25-02)
# source: https://github.com/cklxx/mini-llm https://github.com/cklxx/mini-llm/commit/449a6190e39fe237af076c06b44b149a34de084c src/model/transformer.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class GQASelfAttention(nn.Module):
    def __init__(self, hidden: int, n_heads: int, n_kv_heads: int, p_drop: float = 0.0):
        super().__init__()
        assert hidden % n_heads == 0 and n_heads % n_kv_heads == 0
        self.hidden = hidden
        self.n_heads = n_heads
        self.n_kv = n_kv_heads
        self.head_dim = hidden // n_heads
        self.group = n_heads // n_kv_heads
        self.wq = nn.Linear(hidden, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(hidden, n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(hidden, n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, hidden, bias=False)
        self.drop = nn.Dropout(p_drop)

    def _expand_kv(self, x: torch.Tensor) -> torch.Tensor:
        b, h, t, d = x.shape
        if self.group == 1:
            return x
        return x[:, :, None].expand(b, h, self.group, t, d).reshape(b, self.n_heads, t, d)

    def forward(self, x, attention_mask=None, past=None, use_cache=False):
        b, t, _ = x.shape
        q = self.wq(x).view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(b, t, self.n_kv, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(b, t, self.n_kv, self.head_dim).transpose(1, 2)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        present = (k, v) if use_cache else None
        k = self._expand_kv(k)
        v = self._expand_kv(v)
        out = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=attention_mask,  # expect: ATT002
            dropout_p=self.drop.p if self.training else 0.0,
        )
        out = out.transpose(1, 2).contiguous().view(b, t, self.hidden)
        return self.drop(self.wo(out)), present


class Block(nn.Module):
    def __init__(self, hidden: int, n_heads: int, n_kv_heads: int):
        super().__init__()
        self.ln1 = nn.LayerNorm(hidden)
        self.attn = GQASelfAttention(hidden, n_heads, n_kv_heads)
        self.ln2 = nn.LayerNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.SiLU(), nn.Linear(4 * hidden, hidden))

    def forward(self, x, attention_mask=None):
        h, _ = self.attn(self.ln1(x), attention_mask=attention_mask)
        x = x + h
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab: int, hidden: int = 256, layers: int = 4, n_heads: int = 8, n_kv_heads: int = 2, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab, hidden)
        self.blocks = nn.ModuleList(Block(hidden, n_heads, n_kv_heads) for _ in range(layers))
        self.norm = nn.LayerNorm(hidden)
        self.head = nn.Linear(hidden, vocab, bias=False)

    def causal_mask(self, batch: int, length: int, device, past_len: int = 0) -> torch.Tensor:
        """Mask for scaled_dot_product_attention: PyTorch wants True where access is forbidden."""
        mask = torch.zeros((length, length + past_len), dtype=torch.bool, device=device)
        mask[:, past_len:] = torch.triu(torch.ones((length, length), dtype=torch.bool, device=device), diagonal=1)
        return mask[None, None].expand(batch, 1, length, length + past_len)

    @staticmethod
    def padding_mask(attention_mask):
        if attention_mask is None:
            return None
        if attention_mask.dim() == 2:
            return (~attention_mask.bool())[:, None, None, :]
        return attention_mask.bool()

    def forward(self, input_ids, attention_mask=None):
        b, t = input_ids.shape
        if attention_mask is None:
            attention_mask = input_ids.ne(self.pad_id)
        attention_mask = attention_mask.to(device=input_ids.device, dtype=torch.bool)
        bias = self.causal_mask(b, t, input_ids.device)
        pad = self.padding_mask(attention_mask)
        if pad is not None:
            bias = bias | pad
        x = self.embed(input_ids)
        for block in self.blocks:
            x = block(x, attention_mask=bias)
        x = self.norm(x) * attention_mask.unsqueeze(-1).to(x.dtype)
        return self.head(x)
