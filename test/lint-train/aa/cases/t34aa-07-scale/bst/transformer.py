import numpy as np
import torch
from torch import nn

from bst.layers import Encoder


class BSTransformer(nn.Module):
    """Behaviour Sequence Transformer with context embeddings and sinusoidal positions."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        item = config["item_embed"]
        self.item_embed = nn.Embedding(item["num_embeddings"], item["embedding_dim"],
                                       sparse=item["sparse"], padding_idx=item["padding_idx"])
        self.pos_embedding = self.sinusoidal(config["max_seq_len"], item["embedding_dim"], config["cuda"])
        self.context_embeddings = nn.ModuleList([
            nn.Embedding(f["num_embeddings"], f["embedding_dim"], sparse=f["sparse"], padding_idx=f["padding_idx"])
            for f in config["context_features"]
        ])
        trans = config["trans"]
        self.encoder = Encoder(input_size=trans["input_size"], hidden_size=trans["hidden_size"],
                               n_layers=trans["n_layers"], n_heads=trans["n_heads"])
        mlp_in = trans["input_size"] + sum(f["embedding_dim"] for f in config["context_features"])
        self.mlp = nn.Sequential(nn.Linear(mlp_in, 1024), nn.LeakyReLU(), nn.Linear(1024, item["num_embeddings"]))

    def forward(self, x, context):
        targets = x[..., -1:].long()
        enc_mask = self.get_mask(x)
        emb = self.item_embed(x.long()) * np.sqrt(self.config["item_embed"]["embedding_dim"])
        encoded = self.encoder(emb + self.pos_embedding[: x.size(1), :], mask=enc_mask)
        pooled = torch.mean(encoded, dim=1)
        ctx = torch.cat([e(f) for e, f in zip(self.context_embeddings, context)], dim=1)
        return self.mlp(torch.cat([pooled, ctx], dim=1)), targets

    def get_mask(self, x):
        # 1 where the key is a real (non-padding) item and not in the query's future
        seq_len = x.size(1)
        keep = (x != 0).unsqueeze(1).byte()
        past = (np.triu(np.ones([1, seq_len, seq_len]), k=1) == 0).astype("uint8")
        dtype = torch.cuda.ByteTensor if self.config["cuda"] else torch.ByteTensor
        return dtype(past) & dtype(keep)

    @staticmethod
    def sinusoidal(max_seq_len, dim, is_cuda):
        half = dim // 2
        freq = torch.exp(torch.arange(half, dtype=torch.float) * -(torch.log(torch.tensor(10000.0)) / (half - 1)))
        ang = torch.arange(max_seq_len, dtype=torch.float).unsqueeze(1) * freq.unsqueeze(0)
        emb = torch.stack((torch.sin(ang), torch.cos(ang)), dim=0).view(max_seq_len, -1).t().contiguous().view(max_seq_len, -1)
        if dim % 2 == 1:
            emb = torch.cat([emb, torch.zeros(max_seq_len, 1)], dim=1)
        return emb.cuda() if is_cuda else emb
