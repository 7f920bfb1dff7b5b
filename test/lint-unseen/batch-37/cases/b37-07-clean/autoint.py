import torch
import torch.nn as nn

from interaction import FieldSelfAttention


class AutoIntCTR(nn.Module):
    """AutoInt: embeddings of the sparse fields -> stacked interacting layers -> logit."""

    def __init__(self, vocab_sizes, embedding_size=16, att_layer_num=3, att_head_num=2,
                 att_res=True, hidden_units=(256, 128), device='cpu'):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(v, embedding_size) for v in vocab_sizes])
        field_num = len(vocab_sizes)
        self.int_layers = nn.ModuleList(
            [FieldSelfAttention(embedding_size, att_head_num, att_res, device=device)
             for _ in range(att_layer_num)])
        layers, width = [], field_num * embedding_size
        for units in hidden_units:
            layers += [nn.Linear(width, units), nn.ReLU()]
            width = units
        self.dnn = nn.Sequential(*layers)
        self.out = nn.Linear(width + field_num * embedding_size, 1, bias=False)
        self.to(device)

    def forward(self, sparse_ids):
        embedded = [emb(sparse_ids[:, i:i + 1]) for i, emb in enumerate(self.embeddings)]
        att_input = torch.cat(embedded, dim=1)  # (batch, fields, embedding_size)
        dnn_input = torch.flatten(att_input, start_dim=1)
        for layer in self.int_layers:
            att_input = layer(att_input)
        stacked = torch.cat([torch.flatten(att_input, start_dim=1), self.dnn(dnn_input)], dim=-1)
        return torch.sigmoid(self.out(stacked))
