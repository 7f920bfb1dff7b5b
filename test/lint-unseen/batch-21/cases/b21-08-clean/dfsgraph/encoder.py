# case: b21-08-clean
# modelled-on: wendlerc/dfs-graph-transformer https://github.com/wendlerc/dfs-graph-transformer/commit/8aa7db726b582606901fb908f1a03b19b78db8ca
# label: correct
# class: clean
# pattern: a molecular-graph transformer over DFS codes: the collate code (another module) pads every field sequence-first, (edges, batch), with the value -1000; the encoder builds src_key_padding_mask = (codes['dfs_from'] == -1000).T, i.e. (batch, edges) True at padding, uses ~mask.T to select the real edges of the (edges, batch, d) embedding, scales the embedding by sqrt(d_model) before the positional encoding, and runs nn.TransformerEncoder (sequence-first, no batch_first) with src_key_padding_mask=; with class tokens, a block of False columns is concatenated in front of the mask and the tokens in front of the sequence
# why: correct: == PAD is True exactly at the padded edges, which is what PyTorch's key_padding_mask marks (True = ignore), and .T turns the (edges, batch) comparison into the (batch, edges) layout the encoder expects; the class tokens are never padding, so False is their mask value; sqrt(d_model) scales the embeddings, not the attention scores (nn.TransformerEncoder scales its scores itself)
# looks-like: ATT002, ATT004, ATT005
# source: https://github.com/wendlerc/dfs-graph-transformer https://github.com/wendlerc/dfs-graph-transformer/commit/8aa7db726b582606901fb908f1a03b19b78db8ca src/dfs_transformer/nn/selfattn.py
import math

import torch
import torch.nn as nn

from dfsgraph.collate import PAD


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=500, dropout=0.1):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div)
        pe[:, 0, 1::2] = torch.cos(position * div)
        self.register_buffer("pe", pe)

    def forward(self, x):  # (seq, batch, d)
        return self.dropout(x + self.pe[: x.size(0)])


class DFSCodeEncoder(nn.Module):
    def __init__(self, atom_embedding, bond_embedding, emb_dim=120, nhead=12, nlayers=6, max_nodes=250,
                 max_edges=500, dropout=0.1):
        super().__init__()
        self.ninp = emb_dim * 5
        self.node_pos = nn.Embedding(max_nodes, emb_dim)
        self.emb_seq = PositionalEncoding(self.ninp, max_len=max_edges, dropout=dropout)
        self.emb_atom = atom_embedding
        self.emb_bond = bond_embedding
        self.mixer = nn.Linear(self.ninp, self.ninp)
        layer = nn.TransformerEncoderLayer(d_model=self.ninp, nhead=nhead, dropout=dropout, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, nlayers)
        self.rescale_factor = math.sqrt(self.ninp)

    def forward(self, codes, class_token=None):
        src_key_padding_mask = (codes["dfs_from"] == PAD).T  # (batch, edges)
        n_seq, n_batch = codes["dfs_from"].shape
        real = codes["dfs_from"] >= 0
        code_input = torch.cat((self.node_pos(codes["dfs_from"][real]), self.node_pos(codes["dfs_to"][real]),
                                self.emb_atom(codes["atm_from"][real]), self.emb_atom(codes["atm_to"][real]),
                                self.emb_bond(codes["bnd"][real])), dim=1)
        code_emb = torch.zeros((n_seq, n_batch, self.ninp), device=codes["dfs_from"].device)
        code_emb[real] = code_input
        code_emb[~src_key_padding_mask.T] = self.mixer(code_emb[~src_key_padding_mask.T])
        batch = self.emb_seq(code_emb * self.rescale_factor)  # (edges, batch, d)

        if class_token is None:
            return self.enc(batch, src_key_padding_mask=src_key_padding_mask), src_key_padding_mask
        n_cls = class_token.shape[0]
        cls_cols = torch.zeros((batch.shape[1], n_cls), dtype=torch.bool, device=batch.device)
        src_key_padding_mask = torch.cat((cls_cols, src_key_padding_mask), dim=1)  # (batch, n_cls + edges)
        tokens = torch.cat((class_token.expand(-1, batch.shape[1], -1), batch), dim=0)
        return self.enc(tokens, src_key_padding_mask=src_key_padding_mask), src_key_padding_mask
