# case: t13f-01-clean
# modelled-on: hannlp/SimpleNMT https://github.com/hannlp/SimpleNMT/commit/63c0adcbae1dad24a7b5a040aac0d86bb5ff4c79
# label: correct
# class: clean
# pattern: an NMT toolkit's FLASH model: a gated attention unit (GAU) whose single-head weights are relu(q k^T / n) ** 2 with no softmax, padding keys zeroed with an in-place masked_fill_(mask.unsqueeze(1), 0) after the activation; next to it a multi-head attention that fills -1e9 in place (masked_fill_) into the raw scores where the mask is True and scales by sqrt of the per-head width inside the softmax call; the decoder ORs the key padding mask (tokens.eq(pad)) with a triu(diagonal=1) bool mask
# why: correct: GAU attention has no softmax, so zeroing the squared-ReLU weights of padding keys is exactly how the FLASH paper masks them (a -inf fill would be wrong here); the pad masks are True at padding (eq(pad)) and triu(1) is True above the diagonal, so every mask is an ignore mask and masked_fill_ puts the fill where it is True, in place; -1e9 divided by sqrt(64) still vanishes under softmax, and the diagonal is never masked for real target tokens; what a naive linter could misread: ATT006 (a fill of 0 after the activation), ATT007 (fill 0, -1e9 scaled after the fill), ATT003 (GAU weights without a sqrt(d) scale), ATT002 (eq(pad) | triu masks), ATT005 (torch.transpose(k, 1, 2))
# looks-like: ATT002, ATT003, ATT005, ATT006, ATT007
# source: https://github.com/hannlp/SimpleNMT https://github.com/hannlp/SimpleNMT/commit/63c0adcbae1dad24a7b5a040aac0d86bb5ff4c79 simplenmt/models/FLASH.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedAttentionUnit(nn.Module):
    def __init__(self, d_model: int, s: int = 128, e: int = 1536):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.w_z = nn.Linear(d_model, s)
        self.w_u = nn.Linear(d_model, e)
        self.w_v = nn.Linear(d_model, e)
        self.w_o = nn.Linear(e, d_model)
        self.gamma = nn.Parameter(torch.randn(2, s) * 0.02)
        self.beta = nn.Parameter(torch.zeros(2, s))

    def attn(self, x, v, mask=None):
        z = self.w_z(x)
        q = z * self.gamma[0] + self.beta[0]
        k = z * self.gamma[1] + self.beta[1]
        n = x.size(1)
        qk = torch.matmul(q, torch.transpose(k, 1, 2)) / n
        a = F.relu(qk) ** 2  # B x T x T, no softmax
        if mask is not None:
            a.masked_fill_(mask.unsqueeze(1), 0)
        return torch.matmul(a, v)

    def forward(self, x, mask=None):
        shortcut, x = x, self.norm(x)
        u, v = self.w_u(x), self.w_v(x)
        return self.w_o(u * self.attn(x, v, mask=mask)) + shortcut


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, n_head: int):
        super().__init__()
        self.n_head, self.head_dim = n_head, d_model // n_head
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_out = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None):
        b, lq, lk = q.size(0), q.size(1), k.size(1)
        Q = self.w_q(q).view(b, lq, self.n_head, self.head_dim).transpose(1, 2)
        K = self.w_k(k).view(b, lk, self.n_head, self.head_dim).transpose(1, 2)
        V = self.w_v(v).view(b, lk, self.n_head, self.head_dim).transpose(1, 2)
        scores = torch.matmul(Q, torch.transpose(K, 2, 3))
        if mask is not None:
            scores.masked_fill_(mask, -1e9)
        attn = F.softmax(scores / self.head_dim**0.5, dim=-1)
        out = torch.matmul(attn, V).transpose(1, 2).reshape(b, lq, self.n_head * self.head_dim)
        return self.w_out(out)


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, n_head: int, p_drop: float = 0.1):
        super().__init__()
        self.drop = nn.Dropout(p_drop)
        self.ln1 = nn.LayerNorm(d_model)
        self.self_attn = MultiHeadAttention(d_model, n_head)
        self.ln2 = nn.LayerNorm(d_model)
        self.ctx_attn = MultiHeadAttention(d_model, n_head)

    def forward(self, x, memory, src_pad, tgt_pad):
        h = self.ln1(x)
        x = x + self.drop(self.self_attn(h, h, h, mask=self._with_future(tgt_pad)))
        h = self.ln2(x)
        return x + self.drop(self.ctx_attn(h, memory, memory, mask=src_pad.unsqueeze(1).unsqueeze(1)))

    @staticmethod
    def _with_future(pad):
        n = pad.size(1)
        future = torch.ones((n, n), device=pad.device).triu(diagonal=1).bool()
        return pad.unsqueeze(1).unsqueeze(1) | future


def padding_masks(src_tokens, prev_tgt_tokens, src_pad: int, tgt_pad: int):
    return src_tokens.eq(src_pad), prev_tgt_tokens.eq(tgt_pad)
