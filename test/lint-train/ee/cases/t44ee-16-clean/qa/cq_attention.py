# case: t44ee-16-clean
# modelled-on: maxtrem/qanet https://github.com/maxtrem/qanet/commit/308eb8fde0323c1dde441418d4749cdd524251f4
# label: correct
# class: clean
# pattern: QANet's context-query attention in PyTorch with channels-first encodings: the trilinear similarity S (batch, context, question) is masked twice with a blend helper (`target * mask + (1 - mask) * -1e30`, another file), once with the question mask viewed (B, 1, Lq) and softmaxed over dim=2, once with the context mask viewed (B, Lc, 1) and softmaxed over dim=1; the model (another file) builds both masks as `(ones_like(ids) * 0 != ids).float()`, 1 at real tokens
# why: correct: each softmax is masked along the axis it normalises (question positions for dim=2, context positions for dim=1), the masks are 1 at real tokens, which the blend keeps, and -1e30 is a float32 fill (no half precision in view); the odd `ones_like(ids) * 0 != ids` is `ids != 0`
# looks-like: ATT001, ATT002, ATT006, ATT007
# source: https://github.com/maxtrem/qanet https://github.com/maxtrem/qanet/commit/308eb8fde0323c1dde441418d4749cdd524251f4 modules/cqattn.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from qa.helpers import mask_logits


class Trilinear(nn.Module):
    """S[b, t, j] = w^T [c_t; q_j; c_t * q_j] (Seo et al.)."""

    def __init__(self, d_model, p=0.1):
        super().__init__()
        self.w_c = nn.Parameter(nn.init.xavier_uniform_(torch.empty(d_model, 1)))
        self.w_q = nn.Parameter(nn.init.xavier_uniform_(torch.empty(d_model, 1)))
        self.w_cq = nn.Parameter(nn.init.xavier_uniform_(torch.empty(d_model, 1)).squeeze())
        self.bias = nn.Parameter(torch.zeros(1))
        self.drop = nn.Dropout(p)

    def forward(self, C, Q):
        t, j = C.shape[1], Q.shape[1]
        C, Q = self.drop(C), self.drop(Q)
        a = (C @ self.w_c).expand([-1, -1, j])
        b = (Q @ self.w_q).transpose(1, 2).expand([-1, t, -1])
        c = torch.einsum("btd,d,bjd->btj", C, self.w_cq, Q)
        return a + b + c + self.bias


class ContextQuery(nn.Module):
    def __init__(self, d_model, p=0.0):
        super().__init__()
        self.sim = Trilinear(d_model, p)

    def forward(self, C, Q, mask_C, mask_Q):
        # C: (B, D, Lc), Q: (B, D, Lq) -> (B, L, D)
        Lc, Lq = C.shape[-1], Q.shape[-1]
        C, Q = C.transpose(1, 2), Q.transpose(1, 2)
        S = self.sim(C, Q)  # (B, Lc, Lq)
        S_q = F.softmax(mask_logits(S, mask_Q.view(-1, 1, Lq)), dim=2)
        S_c = F.softmax(mask_logits(S, mask_C.view(-1, Lc, 1)), dim=1)
        A = S_q @ Q
        B = S_q @ S_c.transpose(2, 1) @ C
        return torch.cat((C, A, C * A, C * B), dim=2).transpose(1, 2)
