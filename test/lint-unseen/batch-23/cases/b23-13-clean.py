# case: b23-13-clean
# modelled-on: JawandS/chess-transformer https://github.com/JawandS/chess-transformer/commit/d8acb67b63e5bd702a401c9b2327b24794fa570c
# label: correct
# class: clean
# pattern: a move-sequence language model whose torch modules are imported lazily and passed into a builder function as arguments (torch, nn), with the model class defined inside it: token and position embeddings, a boolean causal mask torch.triu(ones(bool), diagonal=1), a padding mask tokens.eq(pad_id), both handed to nn.TransformerEncoder(batch_first=True) as mask= and src_key_padding_mask=; the collate function right-pads with pad_id after a BOS token
# why: correct: for nn.MultiheadAttention a boolean mask is True where attention is NOT allowed, so triu(diagonal=1) blocks exactly the future and eq(pad_id) blocks exactly the padded keys; every row keeps the BOS key (sequences are right-padded and start with BOS), so nothing is fully masked; the scale and the softmax are the encoder's own
# looks-like: ATT002, ATT008
# source: https://github.com/JawandS/chess-transformer https://github.com/JawandS/chess-transformer/commit/d8acb67b63e5bd702a401c9b2327b24794fa570c simple_chess_transformer/train.py
from dataclasses import dataclass


@dataclass
class TrainConfig:
    embedding_dim: int = 128
    num_heads: int = 4
    num_layers: int = 2
    ff_dim: int = 256
    dropout: float = 0.1


def lazy_torch():
    import torch
    import torch.nn as nn

    return torch, nn


def build_model(torch, nn, vocab_size: int, max_len: int, pad_id: int, cfg: TrainConfig):
    class CausalMoveModel(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.tok = nn.Embedding(vocab_size, cfg.embedding_dim)
            self.pos = nn.Embedding(max_len, cfg.embedding_dim)
            layer = nn.TransformerEncoderLayer(
                d_model=cfg.embedding_dim,
                nhead=cfg.num_heads,
                dim_feedforward=cfg.ff_dim,
                dropout=cfg.dropout,
                batch_first=True,
            )
            self.encoder = nn.TransformerEncoder(layer, num_layers=cfg.num_layers)
            self.norm = nn.LayerNorm(cfg.embedding_dim)
            self.head = nn.Linear(cfg.embedding_dim, vocab_size)

        def forward(self, tokens):
            _, n = tokens.shape
            pos = torch.arange(n, device=tokens.device).unsqueeze(0)
            x = self.tok(tokens) + self.pos(pos)
            future = torch.triu(torch.ones((n, n), device=tokens.device, dtype=torch.bool), diagonal=1)
            padding = tokens.eq(pad_id)
            x = self.encoder(x, mask=future, src_key_padding_mask=padding)
            return self.head(self.norm(x))

    return CausalMoveModel()


def make_collate(torch, pad_id: int):
    def collate(batch):
        xs, ys = zip(*batch)
        n = max(len(x) for x in xs)
        x_t = torch.full((len(xs), n), pad_id, dtype=torch.long)
        y_t = torch.full((len(xs), n), pad_id, dtype=torch.long)
        for row, (x, y) in enumerate(zip(xs, ys)):
            x_t[row, : len(x)] = torch.tensor(x, dtype=torch.long)
            y_t[row, : len(y)] = torch.tensor(y, dtype=torch.long)
        return x_t, y_t

    return collate


def encode_games(games, token_to_id, bos_id, eos_id, unk_id):
    """Each game becomes BOS, moves..., EOS; inputs drop the last token and targets the first."""
    out = []
    for moves in games:
        seq = [bos_id] + [token_to_id.get(m, unk_id) for m in moves] + [eos_id]
        out.append((seq[:-1], seq[1:]))
    return out
