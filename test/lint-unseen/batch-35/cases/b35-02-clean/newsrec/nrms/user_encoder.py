# case: b35-02-clean
# modelled-on: CCRI-POPROX/poprox-recommender https://github.com/CCRI-POPROX/poprox-recommender/commit/2cb9be6df6c2fddbeaa32696e4bb8e9fefc192e4
# label: correct
# class: clean
# pattern: the user encoder of an NRMS news recommender (a newsletter research platform): a multi-head self-attention over the embeddings of the articles a user clicked, whose scaled dot product exponentiates the scores, multiplies them by a 0/1 keep mask built from the history lengths (arange(n) < length, expanded over the query axis and repeated per head) and divides by their sum plus 1e-8; the attended history is pooled by an additive attention whose nn.Softmax(dim=-2) runs over the item axis of a (batch, items, 1) score
# why: correct: multiplying exp(scores) by the keep mask and renormalising is a masked softmax over the keys (the padded history slots get weight 0, the kept ones sum to 1); the scores are divided by sqrt(d_k), the per-head width; k.transpose(-1, -2) is the key transpose of (batch, heads, items, d_k); the pooling's softmax over dim -2 normalises the single score column over the items, which is what an additive attention pool does
# looks-like: ATT001, ATT002, ATT006
# source: https://github.com/CCRI-POPROX/poprox-recommender https://github.com/CCRI-POPROX/poprox-recommender/commit/2cb9be6df6c2fddbeaa32696e4bb8e9fefc192e4 src/poprox_recommender/model/nrms/user_encoder.py (with src/poprox_recommender/model/general/attention/multihead_self.py and additive.py)
import torch

from ..layers.pooling import AttentivePooling
from ..layers.self_attention import HistorySelfAttention


class UserEncoder(torch.nn.Module):
    def __init__(self, embedding_dim: int, n_heads: int, query_dim: int) -> None:
        super().__init__()
        self.history_attention = HistorySelfAttention(embedding_dim, n_heads)
        self.pool = AttentivePooling(embedding_dim, query_dim)

    def forward(self, clicked: torch.Tensor, history_len: torch.Tensor = None) -> torch.Tensor:
        """clicked: (batch, n_clicked, embedding_dim) -> (batch, embedding_dim)"""
        attended = self.history_attention(clicked, history_len)
        return self.pool(attended)


class ClickScorer(torch.nn.Module):
    def __init__(self, user_encoder: UserEncoder) -> None:
        super().__init__()
        self.user_encoder = user_encoder

    def forward(self, candidates: torch.Tensor, clicked: torch.Tensor, history_len: torch.Tensor) -> torch.Tensor:
        """candidates: (batch, n_candidates, dim) -> click scores (batch, n_candidates)"""
        user = self.user_encoder(clicked, history_len)
        return torch.bmm(candidates, user.unsqueeze(-1)).squeeze(-1)
