# case: b17-11-clean
# modelled-on: neineis/multi-head-attention https://github.com/neineis/multi-head-attention/commit/59f2c9a0d8e2b91d585c49bc1faa73462dbe29bb
# label: correct
# class: clean
# pattern: a question-generation seq2seq decoder with a head-selecting multi-head attention: the heads are wider than the model (dim_per_head = d_model * 6 // n_heads); the decoder module projects the encoder context into per-head keys and values once, the attention module projects each decoder state into per-head queries, computes scale = q_s.size(-1) ** -0.5 and passes it to a dot-product helper that multiplies Q @ K^T by it; the source padding mask is built in the decoder as src.eq(PAD).float() (1.0 = padding), broadcast over heads in applyMask and applied arithmetically as scores * (1 - mask) + mask * -1e6 before a softmax over the last axis
# why: correct: the scale is read from the queries' last axis after the head split, i.e. the per-head width (whatever the unusual width); the float mask is 1.0 on padding, so (1 - mask) keeps real keys and mask * -1e6 replaces padded ones with a large finite negative value (no NaN, and the padding gets ~0 weight); the softmax runs over the source positions; K.transpose(-1, -2) swaps the keys' sequence and feature axes
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/neineis/multi-head-attention https://github.com/neineis/multi-head-attention/commit/59f2c9a0d8e2b91d585c49bc1faa73462dbe29bb seq2seq_pt/s2s/modules/MultiHeadAttention.py, seq2seq_pt/s2s/Models.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class DotProductAttention(nn.Module):
    def forward(self, Q, K, V, scale, mask):
        """Q: [B, h, Lq, D]; K, V: [B, h, Lk, D]; mask: [B, h, 1, Lk] float, 1.0 = padding."""
        scores = torch.matmul(Q, K.transpose(-1, -2))
        if scale:
            scores = torch.matmul(Q, K.transpose(-1, -2)) * scale
        if mask is not None:
            scores = scores * (1 - mask) + mask * (-1000000)
        attn = nn.Softmax(dim=-1)(scores)
        return torch.matmul(attn, V), attn


class HeadSelectingAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        assert d_model * 6 % n_heads == 0
        self.dim_per_head = d_model * 6 // n_heads
        self.n_heads = n_heads
        self.W_Q = nn.Linear(d_model, self.dim_per_head * n_heads)
        self.attend = DotProductAttention()
        self.pick = nn.Linear(self.dim_per_head, 1)
        self.out = nn.Linear(self.dim_per_head, d_model)
        self.mask = None

    def applyMask(self, mask):
        # mask: [B, Lk] -> [B, h, 1, Lk]
        self.mask = mask.unsqueeze(1).unsqueeze(1).repeat(1, self.n_heads, 1, 1)

    def forward(self, query, k_s, v_s, greedy):
        batch = query.size(0)
        q_s = self.W_Q(query).view(batch, -1, self.n_heads, self.dim_per_head).transpose(1, 2)
        scale = q_s.size(-1) ** -0.5
        context, attn = self.attend(q_s, k_s, v_s, scale, self.mask)
        context = context.squeeze(2)  # [B, h, D]
        head_logits = self.pick(context).squeeze(2)  # [B, h]
        if greedy:
            head = head_logits.argmax(dim=1, keepdim=True)
        else:
            head = torch.multinomial(F.softmax(head_logits, dim=1), 1)
        chosen = torch.gather(context, 1, head.unsqueeze(2).repeat(1, 1, self.dim_per_head)).squeeze(1)
        return self.out(chosen), attn.squeeze(2)
