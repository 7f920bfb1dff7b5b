# case: b58-09-clean
# modelled-on: ivarick/Chess-Transformers-Engine https://github.com/ivarick/Chess-Transformers-Engine/commit/14a288c42274d517d63009285fefa8f248cc5b55
# label: correct
# class: clean
# pattern: a chess position evaluator: a 22-plane 8x8 board encoding goes through two convolutions (the second with stride 2) to 16 board-patch tokens, a learned position embedding and a CLS token are added, pre-norm encoder blocks run nn.MultiheadAttention(batch_first=True) over the 17 tokens with no mask, and a tanh head on the CLS state scores the position
# why: correct: every position has the same 17 tokens, so there is nothing to pad or mask, and an evaluator looks at the whole board at once (no causal mask); nn.MultiheadAttention scales and normalises internally, and batch_first=True matches the (batch, tokens, width) layout the flatten/transpose produces
# looks-like: ATT002, ATT008
# source: https://github.com/ivarick/Chess-Transformers-Engine https://github.com/ivarick/Chess-Transformers-Engine/commit/14a288c42274d517d63009285fefa8f248cc5b55 model.py
import torch
import torch.nn as nn


class EncoderBlock(nn.Module):
    def __init__(self, width: int = 512, heads: int = 8, ff: int = 2048, p: float = 0.1):
        super().__init__()
        if width % heads:
            raise ValueError("width must be divisible by heads")
        self.mha = nn.MultiheadAttention(width, heads, dropout=p, batch_first=True)
        self.pre_attn = nn.LayerNorm(width)
        self.pre_ff = nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, ff), nn.GELU(), nn.Dropout(p), nn.Linear(ff, width), nn.Dropout(p))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h = self.pre_attn(tokens)
        mixed, _ = self.mha(h, h, h, need_weights=False)
        tokens = tokens + mixed
        return tokens + self.ff(self.pre_ff(tokens))


class BoardEvaluator(nn.Module):
    """Scores a board encoded as (batch, 22, 8, 8) as a result for white."""

    def __init__(self, planes: int = 22, width: int = 512, depth: int = 4, heads: int = 8, ff: int = 2048, p: float = 0.2):
        super().__init__()
        self.patches = nn.Sequential(
            nn.Conv2d(planes, width // 2, kernel_size=3, padding=1),
            nn.LayerNorm([width // 2, 8, 8]),
            nn.GELU(),
            nn.Conv2d(width // 2, width, kernel_size=3, padding=1, stride=2),
            nn.LayerNorm([width, 4, 4]),
            nn.GELU(),
        )
        self.where = nn.Parameter(torch.zeros(1, 16, width))
        self.cls = nn.Parameter(torch.zeros(1, 1, width))
        nn.init.trunc_normal_(self.where, std=0.02)
        nn.init.trunc_normal_(self.cls, std=0.02)
        self.blocks = nn.ModuleList(EncoderBlock(width, heads, ff, p) for _ in range(depth))
        self.norm = nn.LayerNorm(width)
        self.score = nn.Sequential(nn.Linear(width, 256), nn.GELU(), nn.Dropout(p), nn.Linear(256, 1), nn.Tanh())

    def forward(self, board: torch.Tensor) -> torch.Tensor:
        tokens = self.patches(board).flatten(2).transpose(1, 2) + self.where  # (batch, 16, width)
        tokens = torch.cat([self.cls.expand(tokens.size(0), -1, -1), tokens], dim=1)
        for block in self.blocks:
            tokens = block(tokens)
        return self.score(self.norm(tokens[:, 0]))


def parameter_counts(model: nn.Module) -> tuple[int, int]:
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return total, trainable
