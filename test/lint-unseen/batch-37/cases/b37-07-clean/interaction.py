# case: b37-07-clean
# modelled-on: shenweichen/DeepCTR-Torch https://github.com/shenweichen/DeepCTR-Torch/commit/f6854257b1fc29caab655ce72c6b5528b7432574
# label: correct
# class: clean
# pattern: AutoInt's interacting layer for click-through-rate prediction (a folder: the layer and the model that stacks it): field embeddings (batch, fields, emb) are projected with tensordot, split into heads along the embedding axis and stacked head-first (heads, batch, fields, d), einsum 'bnik,bnjk->bnij' gives field-to-field scores, an optional scaling flag (off by default, and the model never turns it on) divides by sqrt(d), and the softmax runs over the last axis; heads are concatenated back and a residual projection is added before a ReLU
# why: correct: the AutoInt paper (Song et al. 2019, eq. 5-6) normalises the plain inner products <W_q e_m, W_k e_k> with a softmax and no 1/sqrt(d) factor, and the library keeps that as the default while offering scaling=True as an option; the einsum's first two letters are the stacked head and batch axes, so the last axis is the key field and the softmax is over it
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/shenweichen/DeepCTR-Torch https://github.com/shenweichen/DeepCTR-Torch/commit/f6854257b1fc29caab655ce72c6b5528b7432574 deepctr_torch/layers/interaction.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class FieldSelfAttention(nn.Module):
    """Multi-head self-attention over feature fields (AutoInt).

    Input: (batch_size, field_size, embedding_size); output: the same shape.
    """

    def __init__(self, embedding_size, head_num=2, use_res=True, scaling=False, device='cpu'):
        super().__init__()
        if head_num <= 0:
            raise ValueError('head_num must be a positive int')
        if embedding_size % head_num != 0:
            raise ValueError('embedding_size must be a multiple of head_num')
        self.head_dim = embedding_size // head_num
        self.head_num = head_num
        self.use_res = use_res
        self.scaling = scaling

        self.w_q = nn.Parameter(torch.Tensor(embedding_size, embedding_size))
        self.w_k = nn.Parameter(torch.Tensor(embedding_size, embedding_size))
        self.w_v = nn.Parameter(torch.Tensor(embedding_size, embedding_size))
        if self.use_res:
            self.w_res = nn.Parameter(torch.Tensor(embedding_size, embedding_size))
        for p in self.parameters():
            nn.init.normal_(p, mean=0.0, std=0.05)
        self.to(device)

    def forward(self, fields):
        if fields.dim() != 3:
            raise ValueError('expected a 3-D input, got %d dimensions' % fields.dim())

        q = torch.tensordot(fields, self.w_q, dims=([-1], [0]))
        k = torch.tensordot(fields, self.w_k, dims=([-1], [0]))
        v = torch.tensordot(fields, self.w_v, dims=([-1], [0]))

        # heads first: (head_num, batch, fields, head_dim)
        q = torch.stack(torch.split(q, self.head_dim, dim=2))
        k = torch.stack(torch.split(k, self.head_dim, dim=2))
        v = torch.stack(torch.split(v, self.head_dim, dim=2))

        scores = torch.einsum('bnik,bnjk->bnij', q, k)  # (head_num, batch, fields, fields)
        if self.scaling:
            scores /= self.head_dim ** 0.5
        self.attention_weights = F.softmax(scores, dim=-1)
        out = torch.matmul(self.attention_weights, v)

        out = torch.cat(torch.split(out, 1), dim=-1)
        out = torch.squeeze(out, dim=0)  # (batch, fields, embedding_size)
        if self.use_res:
            out += torch.tensordot(fields, self.w_res, dims=([-1], [0]))
        return F.relu(out)
