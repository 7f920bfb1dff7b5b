# case: t8b-16-clean
# modelled-on: Peter-obi/protein-structure-prediction-from-scratch https://github.com/Peter-obi/protein-structure-prediction-from-scratch/commit/767af7d7f9f9717361ca8cb48e4acec2fadaa324
# label: correct
# class: clean
# pattern: the PyTorch-fundamentals part of a protein-structure course: multi-head attention with module-level sizes (batch, sequence, 256-wide embedding, 8 heads), heads split with view + transpose(1, 2), scores with einsum "bhid,bhjd->bhij", an nn.Softmax(dim=-1) module built in __init__ applied to the scores divided by sqrt(head_dim), dropout, and einsum "bhij,bhjd->bhid" with the values
# why: correct: the einsum contracts the head features d of each query i with each key j, so no explicit transpose of the keys is needed; head_dim = EMBED_DIM // 8 is the per-head width; the Softmax module normalises the last axis, j, the keys
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/Peter-obi/protein-structure-prediction-from-scratch https://github.com/Peter-obi/protein-structure-prediction-from-scratch/commit/767af7d7f9f9717361ca8cb48e4acec2fadaa324 Part-1-Pytorch-Fundamentals/attention_einsum.py
import math

import torch

BATCH_SIZE = 32
SEQ_LENGTH = 512
EMBED_DIM = 256
HEADS = 8


class MultiHeadAttention(torch.nn.Module):
    def __init__(self):
        super(MultiHeadAttention, self).__init__()
        self.head_dim = EMBED_DIM // 8
        self.q_proj = torch.nn.Linear(EMBED_DIM, EMBED_DIM)
        self.k_proj = torch.nn.Linear(EMBED_DIM, EMBED_DIM)
        self.v_proj = torch.nn.Linear(EMBED_DIM, EMBED_DIM)
        self.dropout = torch.nn.Dropout()
        self.softmax = torch.nn.Softmax(dim=-1)
        self.out_proj = torch.nn.Linear(EMBED_DIM, EMBED_DIM)

    def forward(self, x):
        q = self.q_proj(x).view(BATCH_SIZE, SEQ_LENGTH, HEADS, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(BATCH_SIZE, SEQ_LENGTH, HEADS, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(BATCH_SIZE, SEQ_LENGTH, HEADS, self.head_dim).transpose(1, 2)
        # divide so the values do not get big, softmax to turn scores into probabilities
        attn_1 = self.dropout(self.softmax(torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(self.head_dim)))
        attn_2 = torch.einsum("bhij,bhjd->bhid", attn_1, v)
        attn_2 = attn_2.transpose(1, 2).reshape(BATCH_SIZE, SEQ_LENGTH, EMBED_DIM)
        return self.out_proj(attn_2)
