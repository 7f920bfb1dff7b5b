# case: b35-06-clean
# modelled-on: vishesh9131/CoreRec https://github.com/vishesh9131/CoreRec/commit/46dc9cf02819c04721b74386e89b0fa604f0ffd6
# label: correct
# class: clean
# pattern: the SASRec engine of a recommender-systems library: item sequences are left-padded with item id 0, the padding mask is (seq == 0) ("True = padding = ignore") given as key_padding_mask to nn.MultiheadAttention (batch_first=False, inputs transposed to (seq, batch, hidden)), and the causal mask is a float matrix torch.triu(ones * -1e9, diagonal=1) ("float mask with large negative value instead of bool to prevent NaN") given as attn_mask; pre-norm blocks with clamps, and NaN outputs replaced by zeros; a bidirectional setting passes no attn_mask
# why: correct: nn.MultiheadAttention ignores the keys where key_padding_mask is True, and (seq == 0) is True at the padding; the float causal mask adds -1e9 above the diagonal (the future) and 0 on and below it, and PyTorch accepts a boolean key_padding_mask beside a float attn_mask (merging them); with left padding the rows of padded queries see only padding and become NaN, which the block replaces on purpose and the model never reads (the prediction uses real positions); -1e9 is finite in the float32 scores
# looks-like: ATT002, ATT007
# source: https://github.com/vishesh9131/CoreRec https://github.com/vishesh9131/CoreRec/commit/46dc9cf02819c04721b74386e89b0fa604f0ffd6 corerec/engines/sasrec.py
from typing import List, Optional

import torch
import torch.nn as nn


class PointWiseFeedForward(nn.Module):
    def __init__(self, hidden: int, dropout: float) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(hidden, hidden * 4, kernel_size=1)
        self.conv2 = nn.Conv1d(hidden * 4, hidden, kernel_size=1)
        self.act, self.drop = nn.GELU(), nn.Dropout(dropout)

    def forward(self, x):  # (batch, seq, hidden)
        y = self.conv2(self.drop(self.act(self.conv1(x.transpose(-1, -2)))))
        return self.drop(y).transpose(-1, -2) + x


def _finite(t: torch.Tensor) -> torch.Tensor:
    return torch.where(torch.isnan(t) | torch.isinf(t), torch.zeros_like(t), t)


class SequentialRecModel(nn.Module):
    def __init__(self, n_items: int, hidden: int = 64, heads: int = 2, blocks: int = 2, max_len: int = 50,
                 dropout: float = 0.2, attention_type: str = "causal") -> None:
        super().__init__()
        self.attention_type = attention_type
        self.item_emb = nn.Embedding(n_items + 1, hidden, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, hidden)
        self.drop = nn.Dropout(dropout)
        self.attn = nn.ModuleList(nn.MultiheadAttention(hidden, heads, dropout=dropout, batch_first=False) for _ in range(blocks))
        self.attn_norms = nn.ModuleList(nn.LayerNorm(hidden) for _ in range(blocks))
        self.ffn = nn.ModuleList(PointWiseFeedForward(hidden, dropout) for _ in range(blocks))
        self.ffn_norms = nn.ModuleList(nn.LayerNorm(hidden) for _ in range(blocks))
        self.final_norm = nn.LayerNorm(hidden)

    def future_mask(self, n: int, device) -> Optional[torch.Tensor]:
        if self.attention_type != "causal":
            return None
        # float mask with a large negative value instead of a boolean one, to avoid NaN
        return torch.triu(torch.ones(n, n, device=device) * -1e9, diagonal=1)

    def forward(self, seqs: torch.LongTensor, padding_mask: Optional[torch.BoolTensor] = None) -> torch.Tensor:
        """seqs: (batch, seq) left-padded with 0; padding_mask: (batch, seq), True at the padding."""
        positions = torch.arange(seqs.size(1), device=seqs.device)
        x = self.drop(self.item_emb(seqs) + self.pos_emb(positions).unsqueeze(0)).transpose(0, 1)
        future = self.future_mask(seqs.size(1), seqs.device)
        for attn, norm, ffn, ffn_norm in zip(self.attn, self.attn_norms, self.ffn, self.ffn_norms):
            h = torch.clamp(norm(x), min=-5.0, max=5.0)
            out, _ = attn(h, h, h, key_padding_mask=padding_mask, attn_mask=future, need_weights=False)
            x = torch.clamp(_finite(out) + x, min=-10.0, max=10.0)
            y = ffn(ffn_norm(x).transpose(0, 1)).transpose(0, 1)
            x = torch.clamp(_finite(y) + x, min=-10.0, max=10.0)
        return self.final_norm(x).transpose(0, 1)  # (batch, seq, hidden)


def left_pad(history: List[int], max_len: int) -> List[int]:
    history = history[-max_len:]
    return [0] * (max_len - len(history)) + history


def training_step(model: SequentialRecModel, batch: List[List[int]], targets: torch.Tensor, max_len: int):
    seqs = torch.LongTensor([left_pad(h, max_len) for h in batch])
    padding_mask = seqs == 0  # True = padding = ignore, as key_padding_mask expects
    hidden = model(seqs, padding_mask)
    logits = hidden @ model.item_emb.weight.T  # (batch, seq, n_items + 1)
    loss = nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=0)
    return loss
