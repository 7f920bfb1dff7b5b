import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import MemoryAttention


class RecurrentBlock(nn.Module):
    def __init__(self, d_model: int, d_proj: int, heads: int):
        super().__init__()
        self.rnn = nn.GRU(d_model, d_model)
        self.attn = MemoryAttention(d_model, d_model, d_proj, heads=heads, attn_drop=0.1)

    def forward(self, x, attn_mask, memory):
        h, _ = self.rnn(x)
        return h + self.attn(h, attn_mask=attn_mask, memory=memory)


class CharLM(nn.Module):
    def __init__(self, vocab: int, d_model: int, d_proj: int, heads: int, depth: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.blocks = nn.ModuleList([RecurrentBlock(d_model, d_proj, heads) for _ in range(depth)])
        self.head = nn.Linear(d_model, vocab)
        self.attn_mask = None

    def build_mask(self, mem_length: int, same_length: bool = False):
        ones = self.embed.weight.new_ones(2 * mem_length, 2 * mem_length)
        future = torch.triu(ones, diagonal=1)
        if same_length:
            # also forget keys more than mem_length steps behind each query
            future = future + torch.tril(ones, diagonal=-1 - mem_length)
        self.attn_mask = future * -10000.0

    def forward(self, tokens, targets, memory):
        seg_len = tokens.size(0)
        mem_len = 0 if memory[0] is None else memory[0].size(0)
        mask = self.attn_mask[mem_len:mem_len + seg_len, :mem_len + seg_len].to(self.embed.weight)
        x = self.embed(tokens)
        new_memory = []
        for block, mem in zip(self.blocks, memory):
            new_memory.append(x.detach())
            x = block(x, mask, mem)
        logits = self.head(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), reduction="none")
        return loss.view_as(targets), new_memory


def train_segment(model, data, seg_len, mem_len, optimizer):
    model.build_mask(mem_len)
    memory = [None] * len(model.blocks)
    for start in range(0, data.size(0) - 1, seg_len):
        x = data[start:start + seg_len]
        y = data[start + 1:start + 1 + seg_len]
        if y.size(0) < x.size(0):
            break
        loss, memory = model(x, y, memory)
        memory = [m[-mem_len:] for m in memory]
        optimizer.zero_grad()
        loss.mean().backward()
        optimizer.step()
