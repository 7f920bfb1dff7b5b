# case: t8a-02-clean
# modelled-on: flyingcloud-code/learning-nanogpt-from-0-to-1 https://github.com/flyingcloud-code/learning-nanogpt-from-0-to-1/commit/953a5fe0165220dec800fbf9644b558f80abb774
# label: correct
# class: clean
# pattern: a lesson's ablation script: a tiny character GPT built from nn.MultiheadAttention blocks (batch_first) whose causal mask is a float buffer, triu of a full(-inf) matrix with diagonal=1, sliced to the batch length and passed as attn_mask; LayerNorm and residuals can be switched off
# why: correct: a float attn_mask is added to the scores by nn.MultiheadAttention, so -inf strictly above the diagonal and 0 elsewhere is the causal mask in PyTorch's additive convention (the boolean polarity question does not arise); each row keeps its diagonal
# looks-like: ATT002, ATT007
# source: https://github.com/flyingcloud-code/learning-nanogpt-from-0-to-1 https://github.com/flyingcloud-code/learning-nanogpt-from-0-to-1/commit/953a5fe0165220dec800fbf9644b558f80abb774 17-transformer-block/code/17-ablation.py
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, WIDTH, HEADS, DEPTH, CONTEXT = 65, 128, 4, 3, 256


class AblationBlock(nn.Module):
    """One transformer block whose LayerNorm and residual connections can be removed."""

    def __init__(self, layer_norm: bool = True, residual: bool = True):
        super().__init__()
        self.residual = residual
        self.norm_a = nn.LayerNorm(WIDTH) if layer_norm else nn.Identity()
        self.norm_b = nn.LayerNorm(WIDTH) if layer_norm else nn.Identity()
        self.mha = nn.MultiheadAttention(WIDTH, HEADS, batch_first=True, dropout=0.0)
        self.ffn = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))
        # additive causal mask: -inf above the diagonal (the future), 0 on and below it
        self.register_buffer("future", torch.triu(torch.full((CONTEXT, CONTEXT), float("-inf")), diagonal=1))

    def forward(self, x):
        T = x.size(1)
        h = self.norm_a(x)
        h, _ = self.mha(h, h, h, attn_mask=self.future[:T, :T], need_weights=False)
        x = x + h if self.residual else h
        h = self.ffn(self.norm_b(x))
        return x + h if self.residual else h


class AblationGPT(nn.Module):
    def __init__(self, layer_norm: bool = True, residual: bool = True):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, WIDTH)
        self.pos = nn.Embedding(CONTEXT, WIDTH)
        self.blocks = nn.ModuleList([AblationBlock(layer_norm, residual) for _ in range(DEPTH)])
        self.norm = nn.LayerNorm(WIDTH)
        self.head = nn.Linear(WIDTH, VOCAB, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.size(1), device=idx.device))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x))


def train_variant(data: torch.Tensor, layer_norm: bool, residual: bool, steps: int = 300, device: str = "cpu"):
    torch.manual_seed(17)
    model = AblationGPT(layer_norm, residual).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)
    losses = []
    for step in range(steps):
        ix = torch.randint(len(data) - CONTEXT - 1, (32,))
        xb = torch.stack([data[i : i + CONTEXT] for i in ix]).to(device)
        yb = torch.stack([data[i + 1 : i + CONTEXT + 1] for i in ix]).to(device)
        loss = F.cross_entropy(model(xb).view(-1, VOCAB), yb.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 20 == 0:
            losses.append(loss.item())
    return losses
