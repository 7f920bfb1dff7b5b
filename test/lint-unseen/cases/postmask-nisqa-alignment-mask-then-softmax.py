# case: postmask-nisqa-alignment-mask-then-softmax
# modelled-on: gabrielmittag/NISQA https://github.com/gabrielmittag/NISQA/commit/f7526833c85e7c367eb5b819a1997ec8e5ce48f5
# label: correct
# class: fixed
# pattern: after the fix the score modules return raw scores, a helper method writes -inf into the padded frames in place, and the caller applies softmax(dim=2) afterwards; lengths come in as n_wins
# why: the frames beyond each length are masked on the scores before the softmax over the reference frames (dim 2, the key axis of bmm(query, y^T)); every row keeps its valid frames, so no row is all -inf
# looks-like: ATT003, ATT006, ATT007
# source: https://github.com/gabrielmittag/NISQA https://github.com/gabrielmittag/NISQA/commit/f7526833c85e7c367eb5b819a1997ec8e5ce48f5 nisqa/NISQA_lib.py
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
        att[~mask] = float("-Inf")

    def forward(self, query, y, n_wins_y):
        if self.att is not None:
            att_score, sim = self.att(query, y)
            self._mask_attention(att_score, y, n_wins_y)
            att_score = F.softmax(att_score, dim=2)
            y = self.apply_att(y, att_score)
        return y


class AttDot(nn.Module):
    def forward(self, query, y):
        att = torch.bmm(query, y.transpose(2, 1))
        sim = att.max(2)[0].unsqueeze(1)
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
        return att, sim


class AttLuong(nn.Module):
    def __init__(self, q_dim, y_dim):
        super().__init__()
        self.W = nn.Linear(y_dim, q_dim)

    def forward(self, query, y):
        att = torch.bmm(query, self.W(y).transpose(2, 1))
        sim = att.max(2)[0].unsqueeze(1)
        return att, sim


class ApplySoftAttention(nn.Module):
    def forward(self, y, att):
        return torch.bmm(att, y)
