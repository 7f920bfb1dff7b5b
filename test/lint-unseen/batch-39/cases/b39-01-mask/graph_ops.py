# case: b39-01-mask
# modelled-on: jshe2304/molecular_attention_bias https://github.com/jshe2304/molecular_attention_bias/commit/cca393038397597512fea015a73bb6e40a8a27be
# label: buggy
# class: real-bug
# pattern: graph-structured attention operators for a molecular transformer (a folder: the operators, the model that stacks them, and the dataset code that builds the bond adjacency); the dataset turns each molecule's bond list into a dense boolean adjacency (True where two atoms are bonded), the model hands adj.unsqueeze(1) to every layer, and the layer's operator is chosen by name: a masked scaled dot-product operator that calls F.scaled_dot_product_attention(q, k, v, attn_mask=~adj), and a GATv2 operator that fills ~adj with finfo.min before its softmax
# why: buggy: a boolean attn_mask given to scaled_dot_product_attention marks the positions that MAY be attended (True = take part), so ~adj lets every atom attend exactly to the atoms it is NOT bonded to (and to padding), the opposite of graph-masked attention; the project's own convention elsewhere is a mask whose True entries are blocked (masked_fill(mask, min) in its biased attention, masked_fill(~adj, min) in the GATv2 operator beside it and adj @ x in its GIN operator), so the inverted mask is the blocked-set convention handed to an API that expects the allowed set; the paper compares its models against graph attention, a baseline restricted to the molecular graph; no fix exists in the repository's history (the same ~adj has been passed to SDPA since the operator was written)
# source: https://github.com/jshe2304/molecular_attention_bias https://github.com/jshe2304/molecular_attention_bias/commit/cca393038397597512fea015a73bb6e40a8a27be src/models/modules/graph_attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class BondMaskedAttention(nn.Module):
    def __init__(self, width, heads, **unused):
        super().__init__()
        assert width % heads == 0
        self.width, self.heads = width, heads
        self.head_width = width // heads
        self.to_qkv = nn.Linear(width, 3 * width, bias=False)
        self.proj = nn.Linear(width, width, bias=False)

    def forward(self, atoms, adj=None):
        batch, n_atoms, width = atoms.shape
        packed = self.to_qkv(atoms).view(batch, n_atoms, self.heads, 3 * self.head_width)
        q, k, v = packed.transpose(1, 2).chunk(3, dim=-1)

        mixed = F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=~adj,  # expect: ATT002
        )
        mixed = mixed.transpose(1, 2).reshape(batch, n_atoms, width)
        return self.proj(mixed)


class BondGATv2(nn.Module):
    def __init__(self, width, heads, slope=0.1, **unused):
        super().__init__()
        assert width % heads == 0
        self.heads, self.head_width = heads, width // heads
        self.to_qk = nn.Linear(width, 2 * width, bias=False)
        self.score = nn.Linear(self.head_width, 1, bias=False)
        self.act = nn.LeakyReLU(slope)
        self.proj = nn.Linear(width, width, bias=False)

    def forward(self, atoms, adj, **unused):
        batch, n_atoms, width = atoms.shape
        packed = self.to_qk(atoms).view(batch, n_atoms, self.heads, 2 * self.head_width)
        q, k = packed.permute(0, 2, 1, 3).chunk(2, dim=-1)

        logits = self.score(self.act(q.unsqueeze(2) + k.unsqueeze(3))).squeeze(-1)
        logits = logits.masked_fill(~adj, torch.finfo(logits.dtype).min)
        weights = logits.softmax(dim=-1)

        mixed = (weights @ k).permute(0, 2, 1, 3).reshape(batch, n_atoms, width)
        return self.proj(mixed)


OPERATORS = {"masked_sdpa": BondMaskedAttention, "gatv2": BondGATv2}


def build_operator(kind, width, heads, **kwargs):
    return OPERATORS[kind](width, heads, **kwargs)
