# case: b9-12-scale
# modelled-on: bely66/gpt-from-scratch https://github.com/bely66/gpt-from-scratch/commit/b3ea465b80cb21844b5818521afbd020974931a8
# label: buggy
# class: real-bug
# pattern: a character/word-level GPT script with module-level hyperparameters (including a leftover head_size = 16 from the single-head stage), a Head class that stores its own head_size, a multi-head module that concatenates heads, and blocks that build n_embd // n_head wide heads (384 // 6 = 64)
# why: buggy: Head.forward scales the scores by the module-level head_size (16) instead of its own self.head_size (64 in every block), so the logits are multiplied by 16 ** -0.5 = 0.25 instead of 64 ** -0.5 = 0.125; the line's own comment and the lecture it follows scale by the head's width; no fix was found
# source: https://github.com/bely66/gpt-from-scratch https://github.com/bely66/gpt-from-scratch/commit/b3ea465b80cb21844b5818521afbd020974931a8 gpt.py
import torch
from torch import nn
from torch.nn import functional as F

# hyper-parameters
batch_size = 256
head_size = 16
block_size = 8
n_embed = 384
n_head = 6
n_layer = 6
dropout = 0.2
vocab_size = 5000


class Head(nn.Module):
    def __init__(self, head_size) -> None:
        super().__init__()
        self.head_size = head_size
        self.key = nn.Linear(n_embed, head_size, bias=False)
        self.value = nn.Linear(n_embed, head_size, bias=False)
        self.query = nn.Linear(n_embed, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))
        self.drop_out = nn.Dropout(dropout)

    def forward(self, idx):
        B, T, C = idx.shape
        k = self.key(idx)
        q = self.query(idx)
        wei = q @ k.transpose(-2, -1) * (head_size**-0.5)  # expect: ATT004
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        wei = self.drop_out(wei)
        v = self.value(idx)
        return wei @ v  # (B, T, T) @ (B, T, h) -> (B, T, h)


class MultiHeadedAttention(nn.Module):
    def __init__(self, num_heads, head_size) -> None:
        super().__init__()
        self.heads = nn.ModuleList([Head(head_size) for _ in range(num_heads)])
        self.proj = nn.Linear(n_embed, n_embed)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        x = torch.cat([h(x) for h in self.heads], dim=-1)
        return self.dropout(self.proj(x))


class Block(nn.Module):
    """Transformer block: communication followed by computation"""

    def __init__(self, n_embd, n_head):
        super().__init__()
        head_size = n_embd // n_head
        self.sa = MultiHeadedAttention(n_head, head_size)
        self.ffwd = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd), nn.Dropout(dropout))
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)

    def forward(self, x):
        x = x + self.sa(self.ln1(x))
        return x + self.ffwd(self.ln2(x))


class LanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embed)
        self.positional_embeddings_table = nn.Embedding(block_size, n_embed)
        self.blocks = nn.Sequential(*[Block(n_embed, n_head=n_head) for _ in range(n_layer)])
        self.lm_head = nn.Linear(n_embed, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        x = self.token_embedding_table(idx) + self.positional_embeddings_table(torch.arange(T, device=idx.device))
        return self.lm_head(self.blocks(x))
