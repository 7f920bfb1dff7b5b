# case: t13f-10-causal
# modelled-on: dennisjooo/Translation-Transformer https://github.com/dennisjooo/Translation-Transformer/commit/3afcf8c9e69c40953fff9dd50a8f2597a2d40704
# label: correct
# class: fixed
# pattern: the same translation transformer after its masking fix: SelfAttention calls F.scaled_dot_product_attention with attn_mask=mask only (the is_causal flag stays a constructor argument but is no longer passed), and the model builds the decoder's self-attention mask as the target padding keep mask ANDed with the inverted strict upper triangle, trg_mask = (trg != pad)[:, None, None, :] & ~triu(ones(T, T), 1)
# why: correct: SDPA gets one boolean keep mask (True = may attend) and no is_causal, so nothing is dropped: the mask is True only where the key is a real token at or before the query; queries and keys have the same length and every row keeps its diagonal for real tokens; the encoder and cross-attention get the source padding keep mask; what a naive linter could misread: ATT008 (an is_causal constructor flag on a module that takes attn_mask), ATT002 (a keep mask passed straight to attn_mask, ~triu inverted and ANDed), ATT004 (no explicit scale: SDPA's default 1/sqrt(head_dim))
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/dennisjooo/Translation-Transformer https://github.com/dennisjooo/Translation-Transformer/commit/3afcf8c9e69c40953fff9dd50a8f2597a2d40704 src/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, n_embed: int, n_head: int, is_causal: bool = False, dropout_p: float = 0.1):
        super().__init__()
        assert n_embed % n_head == 0, "n_embed must be divisible by n_head"
        self.n_head, self.n_embed, self.head_dim = n_head, n_embed, n_embed // n_head
        self.is_causal = is_causal
        self.dropout_p = dropout_p
        self.W_q = nn.Linear(n_embed, n_embed, bias=False)
        self.W_k = nn.Linear(n_embed, n_embed, bias=False)
        self.W_v = nn.Linear(n_embed, n_embed, bias=False)
        self.output = nn.Linear(n_embed, n_embed, bias=False)

    def forward(self, q, k, v, mask=None):
        b, n, _ = q.size()
        q = self.W_q(q).view(b, -1, self.n_head, self.head_dim).transpose(1, 2)
        k = self.W_k(k).view(b, -1, self.n_head, self.head_dim).transpose(1, 2)
        v = self.W_v(v).view(b, -1, self.n_head, self.head_dim).transpose(1, 2)
        attention = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=mask,  # pass the mask to the attention mechanism
            dropout_p=self.dropout_p if self.training else 0.0,
        )
        attention = attention.transpose(1, 2).contiguous().view(b, n, self.n_embed)
        return self.output(attention)


class DecoderBlock(nn.Module):
    def __init__(self, n_embed: int, n_head: int, n_hidden: int, dropout_p: float = 0.1):
        super().__init__()
        self.attn1 = SelfAttention(n_embed, n_head, is_causal=True, dropout_p=dropout_p)
        self.attn2 = SelfAttention(n_embed, n_head)
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(n_embed), nn.LayerNorm(n_embed), nn.LayerNorm(n_embed)
        self.mlp = nn.Sequential(nn.Linear(n_embed, n_hidden), nn.GELU(), nn.Linear(n_hidden, n_embed))

    def forward(self, x, enc_output, src_mask=None, trg_mask=None):
        h = self.norm1(x)
        x = x + self.attn1(h, h, h, mask=trg_mask)
        h = self.norm2(x)
        x = x + self.attn2(h, enc_output, enc_output, mask=src_mask)
        return x + self.mlp(self.norm3(x))


class Translator(nn.Module):
    def __init__(self, vocab_size: int, n_embed: int = 256, n_head: int = 8, n_layers: int = 3, pad_idx: int = 0):
        super().__init__()
        self.pad_idx = pad_idx
        self.embed = nn.Embedding(vocab_size, n_embed)
        self.enc = nn.ModuleList([SelfAttention(n_embed, n_head) for _ in range(n_layers)])
        self.dec = nn.ModuleList([DecoderBlock(n_embed, n_head, 4 * n_embed) for _ in range(n_layers)])
        self.out = nn.Linear(n_embed, vocab_size)

    def forward(self, src, trg):
        src_mask = (src != self.pad_idx).unsqueeze(1).unsqueeze(2)  # (B, 1, 1, S)
        trg_pad = (trg != self.pad_idx).unsqueeze(1).unsqueeze(2)  # (B, 1, 1, T)
        T = trg.size(1)
        future = torch.triu(torch.ones(T, T), diagonal=1).bool().unsqueeze(0).unsqueeze(0)
        trg_mask = trg_pad & ~future.to(trg.device)  # (B, 1, T, T)
        x = self.embed(src)
        for layer in self.enc:
            x = x + layer(x, x, x, mask=src_mask)
        y = self.embed(trg)
        for block in self.dec:
            y = block(y, x, src_mask=src_mask, trg_mask=trg_mask)
        return self.out(y)
