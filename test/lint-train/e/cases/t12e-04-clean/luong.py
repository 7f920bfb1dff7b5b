# case: t12e-04-clean
# modelled-on: HoangVo-Prog/Luong-Attention-from-Scratch https://github.com/HoangVo-Prog/Luong-Attention-from-Scratch/commit/ae3b6b88669a873f253439f304f601eba9eb8256
# label: correct
# class: clean
# pattern: Luong et al.'s global and local attention for a GRU translator: alignment scores for the dot, general and concat methods computed as (batch, src_len) by bmm of the unsqueezed decoder state with encoder_outputs.transpose(1, 2) and squeeze(1), or by Va(tanh([W h; h_s])).squeeze(2); global attention softmaxes them over dim=1; local-m attention multiplies the softmaxed alignment by a Gaussian centred on the current step (MAX_LENGTH and sigma from a settings module), as in the paper's a_t(s) = align(h_t, h_s) exp(-(s - p_t)^2 / 2 sigma^2)
# why: correct: the scores are 2-D (batch, src_len), so dim=1 is the source axis; transpose(1, 2) turns the (batch, src_len, hidden) encoder outputs into (batch, hidden, src_len) for the bmm with a (batch, 1, hidden) query; Luong attention is unscaled; the Gaussian factor after the softmax is the paper's definition of local attention (it favours positions near p_t, and is not a mask); what a naive linter could misread: ATT001 (softmax over dim=1), ATT003 (no scale), ATT005 (transpose(1, 2) of the keys), ATT006 (a factor multiplied into the weights after the softmax)
# looks-like: ATT001, ATT003, ATT005, ATT006
# source: https://github.com/HoangVo-Prog/Luong-Attention-from-Scratch https://github.com/HoangVo-Prog/Luong-Attention-from-Scratch/commit/ae3b6b88669a873f253439f304f601eba9eb8256 attention.py
import torch
import torch.nn as nn

from settings import MAX_LENGTH


class AlignBase(nn.Module):
    def __init__(self, hidden_dim):
        super().__init__()
        self.Va = nn.Linear(hidden_dim * 2, 1)
        self.Wa = nn.Linear(hidden_dim, hidden_dim)

    def align(self, dec_hidden, enc_out, method):
        if method == "dot":
            return torch.bmm(dec_hidden.unsqueeze(1), enc_out.transpose(1, 2)).squeeze(1)
        if method == "general":
            return torch.bmm(dec_hidden.unsqueeze(1), self.Wa(enc_out).transpose(1, 2)).squeeze(1)
        if method == "concat":
            expanded = self.Wa(dec_hidden).unsqueeze(1).expand(-1, enc_out.size(1), -1)
            return self.Va(torch.tanh(torch.cat([expanded, enc_out], dim=-1))).squeeze(2)
        raise ValueError("Choose 'dot', 'general' or 'concat'.")


class GlobalAttention(AlignBase):
    def forward(self, enc_out, dec_hidden, method):
        weights = torch.softmax(self.align(dec_hidden, enc_out, method), dim=1)  # (batch, src_len)
        context = torch.bmm(weights.unsqueeze(1), enc_out).squeeze(1)
        return context, weights


class LocalMonotonicAttention(AlignBase):
    def __init__(self, hidden_dim, sigma=1.0):
        super().__init__(hidden_dim)
        self.sigma = sigma

    def gaussian(self, positions, p_t):
        p_t = p_t.unsqueeze(1).expand(-1, positions.size(1))
        positions = positions.expand(p_t.size(0), -1)
        return torch.exp(-((positions - p_t) ** 2) / (2 * self.sigma ** 2))

    def forward(self, enc_out, dec_hidden, method, timestep):
        p_t = torch.full((enc_out.size(0),), float(timestep), device=enc_out.device)
        positions = torch.arange(MAX_LENGTH, device=enc_out.device).float().unsqueeze(0)
        weights = torch.softmax(self.align(dec_hidden, enc_out, method), dim=1) * self.gaussian(positions, p_t)
        context = torch.bmm(weights.unsqueeze(1), enc_out).squeeze(1)
        return context, weights
