# case: t23p-09-clean
# modelled-on: Risitop/chess-transformer https://github.com/Risitop/chess-transformer/commit/e17d758a62980345b0b7c7e016d3567bff5db0b3
# label: correct
# class: clean
# pattern: a chess policy model over a variable-length list of pieces: the collate function in another module pads the piece lists with a sentinel piece id (12); the model embeds pieces and squares, appends metadata tokens (castling, turn, recent moves), builds the padding mask as (piece == 12) for the piece tokens concatenated with all-False for the metadata tokens, runs nn.TransformerEncoder(batch_first=True, norm_first=True) with src_key_padding_mask, and scores moves by a decoder tied to the square embedding
# why: correct: src_key_padding_mask is True where a key is ignored, and piece == PAD_PIECE is True exactly on the padded rows, while the metadata tokens are always real (False); every sequence has real tokens, so no row is fully masked; the softmax, the scale and the mask application are nn.MultiheadAttention's own
# looks-like: ATT002, ATT007
# source: https://github.com/Risitop/chess-transformer https://github.com/Risitop/chess-transformer/commit/e17d758a62980345b0b7c7e016d3567bff5db0b3 chessformer/model/chessformer.py
import torch
import torch.nn as nn

from chessformer import batching as bt


class Chessformer(nn.Module):
    def __init__(self, dim: int, n_layers: int, n_heads: int, dropout: float):
        super().__init__()
        self.emb_piece = nn.Embedding(13, dim, padding_idx=bt.PAD_PIECE)
        self.emb_square = nn.Embedding(64, dim)
        self.emb_castle_b = nn.Embedding(2, dim)
        self.emb_castle_w = nn.Embedding(2, dim)
        self.emb_turn = nn.Embedding(2, dim)
        self.prev_move = nn.Parameter(torch.zeros(dim))
        layer = nn.TransformerEncoderLayer(
            dim, n_heads, dim_feedforward=4 * dim, dropout=dropout, batch_first=True, norm_first=True, bias=False
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers=n_layers)
        self.move_decoder = nn.Linear(dim, 64, bias=False)
        self.move_decoder.weight = self.emb_square.weight

    def forward(self, board: torch.Tensor, meta: torch.Tensor) -> torch.Tensor:
        b = board.shape[0]
        x = self.emb_piece(board[:, :, bt.IDX_PIECE]) + self.emb_square(board[:, :, bt.IDX_SQUARE])
        extra = [
            self.emb_castle_b(meta[:, bt.IDX_CASTLE_B]).unsqueeze(1),
            self.emb_castle_w(meta[:, bt.IDX_CASTLE_W]).unsqueeze(1),
            self.emb_turn(meta[:, bt.IDX_TURN]).unsqueeze(1),
            torch.stack([self.emb_square(meta[:, j]) + self.prev_move for j in range(bt.IDX_MOVE, meta.shape[1])], dim=1),
        ]
        tokens = torch.cat([x, *extra], dim=1)

        piece_pad = board[:, :, 0] == bt.PAD_PIECE
        meta_pad = torch.zeros(b, meta.shape[1], device=board.device, dtype=torch.bool)
        pad = torch.cat([piece_pad, meta_pad], dim=1)

        h = self.encoder(tokens, src_key_padding_mask=pad)
        h = h[:, : -meta.shape[1], :]  # piece tokens only
        return self.move_decoder(h)  # (B, pieces, 64 target squares)
