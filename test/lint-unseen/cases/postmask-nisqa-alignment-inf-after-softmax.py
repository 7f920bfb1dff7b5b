# case: postmask-nisqa-alignment-inf-after-softmax
# modelled-on: gabrielmittag/NISQA https://github.com/gabrielmittag/NISQA/issues/17
# label: buggy
# class: real-bug
# pattern: the score modules (dot, Luong, Bahdanau) already apply softmax(dim=2) and return the weights; the alignment module then writes -inf into the padded frames in place through a helper method, and multiplies the result with the values in a third module
# why: the length mask is applied to the weights after the softmax, so the padded frames keep their share of the probability mass and the -inf entries turn the bmm with the values into NaN; the maintainer confirmed and moved the softmax after the masking (f752683)
# source: https://github.com/gabrielmittag/NISQA https://github.com/gabrielmittag/NISQA/commit/b4583039171eb77dfbf456bd3c7778eb8da6fbdf nisqa/NISQA_lib.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class Alignment(nn.Module):
    '''Time-aligns the reference frames y to the degraded frames (query).'''

    def __init__(self, att_method, apply_att_method, q_dim=None, y_dim=None):
        super().__init__()
        if att_method == 'bahd':
            self.att = AttBahdanau(q_dim=q_dim, y_dim=y_dim)
        elif att_method == 'luong':
            self.att = AttLuong(q_dim=q_dim, y_dim=y_dim)
        elif att_method == 'dot':
            self.att = AttDot()
        else:
            self.att = None

        if apply_att_method == 'soft':
            self.apply_att = ApplySoftAttention()
        else:
            raise NotImplementedError

    def _mask_attention(self, att, y, n_wins):
        mask = torch.arange(att.shape[2])[None, :] < n_wins[:, None].to('cpu').to(torch.long)
        mask = mask.unsqueeze(1).expand_as(att)
        att[~mask] = float("-Inf")  # expect: ATT006

    def forward(self, query, y, n_wins_y):
        if self.att is not None:
            att_score, sim = self.att(query, y)
            self._mask_attention(att_score, y, n_wins_y)
            y = self.apply_att(y, att_score)
        return y


class AttDot(nn.Module):
    def __init__(self, softmax=True):
        super().__init__()
        self.softmax = softmax

    def forward(self, query, y):
        att = torch.bmm(query, y.transpose(2, 1))
        sim = att.max(2)[0].unsqueeze(1)
        if self.softmax:
            att = F.softmax(att, dim=2)
        return att, sim


class AttBahdanau(nn.Module):
    def __init__(self, q_dim, y_dim, att_dim=128):
        super().__init__()
        self.Wq = nn.Linear(q_dim, att_dim)
        self.Wy = nn.Linear(y_dim, att_dim)
        self.v = nn.Linear(att_dim, 1)

    def forward(self, query, y):
        att = torch.tanh(self.Wq(query).unsqueeze(1) + self.Wy(y).unsqueeze(2))
        att = self.v(att).squeeze(3).transpose(2, 1)
        sim = att.max(2)[0].unsqueeze(1)
        att = F.softmax(att, dim=2)
        return att, sim


class AttLuong(nn.Module):
    def __init__(self, q_dim, y_dim, softmax=True):
        super().__init__()
        self.softmax = softmax
        self.W = nn.Linear(y_dim, q_dim)

    def forward(self, query, y):
        att = torch.bmm(query, self.W(y).transpose(2, 1))
        sim = att.max(2)[0].unsqueeze(1)
        if self.softmax:
            att = F.softmax(att, dim=2)
        return att, sim


class ApplySoftAttention(nn.Module):
    def forward(self, y, att):
        return torch.bmm(att, y)
