# case: b22-08-clean
# modelled-on: Danqi7/nano-scGPT https://github.com/Danqi7/nano-scGPT/commit/7aa5442b8a0c356a66772f6d17b5b57b3418f29a
# label: correct
# class: clean
# pattern: a compact re-implementation of a single-cell transformer: the tokenizer (tokenizer.py) returns padding_mask True for padding; the attention takes it under the name src_key_padding_mask and has two paths: with flash attention it passes ~src_key_padding_mask[:, None, None, :] to F.scaled_dot_product_attention as a boolean attn_mask, otherwise it builds a (B, 1, 1, T) float bias with masked_fill(src_key_padding_mask, -inf) and adds it to q @ k^T / sqrt(head_dim)
# why: correct: the two APIs use opposite conventions and the code converts between them: a boolean SDPA mask is True where attention is allowed, so the negated padding mask is True exactly on real tokens; the manual path puts -inf on the padding only; the [CLS] token is never padding, so no row is fully masked
# looks-like: ATT002, ATT007
# source: https://github.com/Danqi7/nano-scGPT https://github.com/Danqi7/nano-scGPT/commit/7aa5442b8a0c356a66772f6d17b5b57b3418f29a nano_scgpt/model.py
import torch
import torch.nn as nn


class CellAttention(nn.Module):
    def __init__(self, n_embd: int, n_head: int, dropout: float = 0.0, use_flash: bool = True):
        super().__init__()
        assert n_embd % n_head == 0, "Embedding dimension must be divisible by number of heads"
        self.n_embd = n_embd
        self.n_head = n_head
        self.in_proj = nn.Linear(n_embd, 3 * n_embd)
        self.out_proj = nn.Linear(n_embd, n_embd)
        self.dropout_p = dropout
        self.dropout = nn.Dropout(dropout)
        self.use_flash = use_flash and hasattr(torch.nn.functional, "scaled_dot_product_attention")

    def forward(self, x: torch.Tensor, src_key_padding_mask: torch.BoolTensor | None) -> torch.Tensor:
        B, T, D = x.size()
        head_dim = D // self.n_head
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.view(B, T, self.n_head, head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_head, head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_head, head_dim).transpose(1, 2)

        if self.use_flash:
            bool_mask = ~src_key_padding_mask[:, None, None, :] if src_key_padding_mask is not None else None
            out = torch.nn.functional.scaled_dot_product_attention(
                q, k, v, attn_mask=bool_mask, dropout_p=self.dropout_p if self.training else 0.0, is_causal=False
            )
        else:
            attn_bias = None
            if src_key_padding_mask is not None:
                attn_bias = torch.zeros(B, 1, 1, T, device=x.device, dtype=q.dtype)
                attn_bias = attn_bias.masked_fill(src_key_padding_mask[:, None, None, :], float("-inf"))
            weights = q @ k.transpose(-2, -1) / (head_dim ** 0.5)
            if attn_bias is not None:
                weights = weights + attn_bias
            weights = self.dropout(torch.softmax(weights, dim=-1))
            out = weights @ v

        out = out.transpose(1, 2).contiguous().view(B, T, D)
        return self.out_proj(out)
