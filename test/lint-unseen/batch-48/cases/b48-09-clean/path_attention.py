# case: b48-09-clean
# modelled-on: benatorc/PA-Graph-Transformer https://github.com/benatorc/PA-Graph-Transformer/commit/df0d4ab696a2a8e5b32d27af138a449233421b35
# label: correct
# class: clean
# pattern: a path-augmented graph transformer over molecules (a folder: the padding helper that builds a 0/1 atom-pair mask, and the attention layer): pair scores come from an MLP over [atom_i, atom_j, path features] with shape (batch*heads, atoms, atoms, 1); the softmax is written by hand over dim 2 (the neighbour atom j): scores times the 0/1 mask, minus the row max, exp, times the mask again, divided by the masked sum plus eps
# why: correct: dim 2 of (batch, atoms_i, atoms_j, 1) is the neighbour axis, and the weighted sum of messages is also over dim 2; multiplying the exponentials by the 0/1 mask before summing removes the padded (or non-neighbour) atoms from the numerator and the denominator, so this is a masked softmax, not a mask applied after a softmax; the scores come from an MLP (additive attention), so no 1/sqrt(d) is expected; padded atoms' rows are all zero and give zero weights thanks to eps
# looks-like: ATT001, ATT003, ATT006, ATT007
# source: https://github.com/benatorc/PA-Graph-Transformer https://github.com/benatorc/PA-Graph-Transformer/commit/df0d4ab696a2a8e5b32d27af138a449233421b35 models/mol_transformer.py
import torch
import torch.nn as nn

from batching import pad_atoms, unpad_atoms


class PathAttentionLayer(nn.Module):
    def __init__(self, d_k: int, n_path_feats: int, dropout: float = 0.1):
        super().__init__()
        pair_in = 2 * d_k + n_path_feats
        self.score_hidden = nn.Linear(pair_in, d_k)
        self.score_out = nn.Linear(d_k, 1)
        self.message = nn.Linear(pair_in, d_k)
        self.act = nn.LeakyReLU(0.2)
        self.drop = nn.Dropout(dropout)

    @staticmethod
    def pair_inputs(h: torch.Tensor, paths: torch.Tensor) -> torch.Tensor:
        n = h.size(1)
        left = h[:, :, None, :].expand(-1, -1, n, -1)
        right = h[:, None, :, :].expand(-1, n, -1, -1)
        return torch.cat([left, right, paths], dim=3)

    def weights(self, pairs: torch.Tensor, mask: torch.Tensor, eps: float = 1e-20) -> torch.Tensor:
        scores = self.score_out(self.act(self.score_hidden(pairs))) * mask       # (N, i, j, 1)
        top = scores.max(dim=2, keepdim=True)[0]
        expd = torch.exp(scores - top) * mask
        return expd / (expd.sum(dim=2, keepdim=True) + eps) * mask

    def forward(self, h, paths, mask):
        pairs = self.pair_inputs(h, paths)
        probs = self.weights(pairs, mask)
        msg = self.message(torch.sum(self.drop(probs) * pairs, dim=2))
        return msg, probs


class PathGraphEncoder(nn.Module):
    def __init__(self, n_atom_feats, n_path_feats, heads=4, d_k=64, depth=5, out_dim=256):
        super().__init__()
        self.heads, self.d_k, self.depth = heads, d_k, depth
        self.embed = nn.Linear(n_atom_feats, heads * d_k, bias=False)
        self.layer = PathAttentionLayer(d_k, n_path_feats)
        self.out = nn.Linear(n_atom_feats + heads * d_k, out_dim)

    def forward(self, atom_feats, spans, paths, device):
        max_atoms = max(count for _, count in spans)
        x, mask = pad_atoms(atom_feats, spans, max_atoms, device)
        b = x.size(0)
        mask = mask.float()[..., None].repeat(self.heads, 1, 1, 1)
        paths = paths.repeat(self.heads, 1, 1, 1)
        h0 = self.embed(x).view(b, max_atoms, self.heads, self.d_k).permute(2, 0, 1, 3).reshape(-1, max_atoms, self.d_k)
        h = h0
        for _ in range(self.depth - 1):
            msg, _ = self.layer(h, paths, mask)
            h = torch.relu(msg + h0)
        h = h.view(self.heads, b, max_atoms, -1).permute(1, 2, 0, 3).reshape(b, max_atoms, -1)
        return torch.relu(self.out(torch.cat([atom_feats, unpad_atoms(h, spans)], dim=1)))
