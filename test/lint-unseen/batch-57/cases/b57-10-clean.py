# case: b57-10-clean
# modelled-on: VovaTch/AttentionChess https://github.com/VovaTch/AttentionChess/commit/021fea4a02661b8af9de376ebc473fa5f58b3551
# label: correct
# class: clean
# pattern: a chess engine whose transformer decoder takes one query per legal move (move words padded to a fixed length with a padding index) and cross-attends to the encoded board; the decoder is given an all-zero float tgt_mask, and the move scores of each board are turned into a policy with a softmax over that board's legal moves (dim 0 of a 1-D slice), optionally pruned to the top moves and renormalised
# why: correct: a float tgt_mask is added to the attention logits, so a matrix of zeros masks nothing: the legal-move queries are an unordered set that should see each other, not an autoregressive sequence, so no causal mask is wanted; the policy softmax runs over the legal moves of one board (a 1-D tensor, dim 0 is its only axis) and the pruned probabilities are divided by their own sum; scaling and masking inside the attention are nn.TransformerDecoderLayer's
# looks-like: ATT001, ATT002, ATT008
# source: https://github.com/VovaTch/AttentionChess https://github.com/VovaTch/AttentionChess/commit/021fea4a02661b8af9de376ebc473fa5f58b3551 model/attchess.py
from typing import List, Optional

import torch
from torch import nn

N_MOVE_WORDS = 4864
PAD_MOVE = N_MOVE_WORDS


class LayerwiseDecoder(nn.TransformerDecoder):
    """nn.TransformerDecoder that also returns the output of every `every`-th layer."""

    def __init__(self, layer, num_layers, every=1):
        super().__init__(layer, num_layers)
        self.every = every

    def forward(self, tgt, memory, tgt_mask: Optional[torch.Tensor] = None, memory_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None):
        out, extra = tgt, []
        for i, layer in enumerate(self.layers):
            out = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                        tgt_key_padding_mask=tgt_key_padding_mask,
                        memory_key_padding_mask=memory_key_padding_mask)
            if (i + 1) % self.every:
                extra.append(out.clone())
        return out, extra


class MoveQueryNet(nn.Module):
    def __init__(self, width=32, heads=8, enc_layers=10, dec_layers=5, max_moves=256, p=0.1):
        super().__init__()
        self.max_moves = max_moves
        self.square_embed = nn.Embedding(36, width)
        self.move_embed = nn.Embedding(N_MOVE_WORDS + 1, width, padding_idx=PAD_MOVE)
        enc = nn.TransformerEncoderLayer(width, heads, dropout=p, batch_first=True, norm_first=True)
        dec = nn.TransformerDecoderLayer(width, heads, dropout=p, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(enc, enc_layers)
        self.decoder = LayerwiseDecoder(dec, dec_layers, every=dec_layers)
        self.quality = nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Linear(width, 1))
        self.register_buffer("no_mask", torch.zeros(max_moves, max_moves))

    def move_words(self, legal: torch.Tensor) -> torch.Tensor:
        """legal: (B, 64, 76) > 0 where (from-square, move-type) is legal -> (B, max_moves) word ids."""
        words = torch.full((legal.shape[0], self.max_moves), PAD_MOVE, dtype=torch.long, device=legal.device)
        hits = torch.nonzero(legal > 0)
        for b in range(legal.shape[0]):
            mine = hits[hits[:, 0] == b]
            ids = mine[:, 1] + 64 * mine[:, 2]
            words[b, : min(len(ids), self.max_moves)] = ids[: self.max_moves]
        return words

    def forward(self, squares: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
        board = self.encoder(self.square_embed(squares.flatten(1)))
        queries = self.move_embed(self.move_words(legal))
        decoded, _ = self.decoder(queries, board, tgt_mask=self.no_mask)
        return self.quality(decoded).squeeze(-1)

    @staticmethod
    def policy(scores: torch.Tensor, counts: List[int], keep: Optional[int] = None) -> list:
        out = []
        for row, n in zip(scores, counts):
            probs = torch.softmax(row[:n], 0)
            order = torch.arange(n, device=row.device)
            if keep is not None and probs.shape[-1] > keep:
                probs, order = torch.sort(probs, descending=True)
                probs, order = probs[:keep] / probs[:keep].sum(), order[:keep]
            out.append((probs, order))
        return out
