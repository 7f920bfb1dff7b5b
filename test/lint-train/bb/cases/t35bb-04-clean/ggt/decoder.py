import torch
import torch.nn as nn
import torch.nn.functional as F

from .layers import DecoderLayer, PositionalEncoder, get_clones
from .masks import generate_mask_pad, generate_mask_sequence


class DecoderGGT(nn.Module):
    """Generates the soft adjacency vector a_t and the node coordinates x_t of each new node."""

    def __init__(self, d_model, N=12, dropout=0.0, adj_size=30, coord_size=2, visual_size=256, heads=8,
                 max_n_nodes=21, use_pe=True):
        super().__init__()
        self.N = N
        self.use_pe = use_pe
        if use_pe:
            self.pe = PositionalEncoder(d_model, max_seq_len=max_n_nodes)
        self.input_linear = nn.Linear(coord_size + adj_size + visual_size, d_model)
        self.layers = get_clones(DecoderLayer(d_model, heads, dropout=dropout), N)
        self.output_adj_1 = nn.Linear(d_model, d_model // 2)
        self.output_adj_2 = nn.Linear(d_model // 2, adj_size)
        self.output_coord_1 = nn.Linear(d_model, d_model // 2)
        self.output_coord_2 = nn.Linear(d_model // 2, coord_size)

    def forward(self, x, input_len, get_att_weights=False):
        att_weights = []
        mask_sequence = generate_mask_sequence(size=x.shape[1], device=x.device)
        mask_pad = generate_mask_pad(input_len, x.shape, device=x.device)
        mask = mask_sequence & mask_pad  # B x S x S keep mask

        x = F.relu_(self.input_linear(x))
        if self.use_pe:
            x = self.pe(x)

        for i in range(self.N):
            x, avg_scores = self.layers[i](x, mask)
            if get_att_weights and i == 8:
                att_weights.append(avg_scores)

        output_adj = torch.sigmoid(self.output_adj_2(F.relu(self.output_adj_1(x))))
        output_coord = torch.tanh(self.output_coord_2(F.relu_(self.output_coord_1(x))))
        if get_att_weights:
            return output_adj, output_coord, att_weights
        return output_adj, output_coord
