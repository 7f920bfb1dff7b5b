import torch
import torch.nn as nn

from mha import MultiHead

PAD = 0


def real_tokens(ids, pad=PAD):
    """(B, L) -> (B, 1, L) bool, True on real (non-padding) keys."""
    return (ids != pad).unsqueeze(1)


def no_future(n, device=None):
    """(1, n, n) bool, True where position t may look at position s <= t."""
    return torch.ones(n, n, dtype=torch.bool, device=device).tril().unsqueeze(0)


class DecoderBlock(nn.Module):
    def __init__(self, d_model, heads, d_ff, dropout):
        super().__init__()
        self.self_att = MultiHead(d_model, heads)
        self.src_att = MultiHead(d_model, heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))
        self.ln = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(3))
        self.drop = nn.Dropout(dropout)

    def forward(self, y, memory, tgt_allowed, src_allowed):
        y = self.ln[0](y + self.drop(self.self_att(y, y, y, tgt_allowed)))
        y = self.ln[1](y + self.drop(self.src_att(y, memory, memory, src_allowed)))
        return self.ln[2](y + self.drop(self.ff(y)))


class TextToSQL(nn.Module):
    def __init__(self, vocab, encoder, embed, d_model=256, heads=4, layers=3, d_ff=1024, dropout=0.1):
        super().__init__()
        self.encoder = encoder
        self.embed = embed
        self.blocks = nn.ModuleList(DecoderBlock(d_model, heads, d_ff, dropout) for _ in range(layers))
        self.proj = nn.Linear(d_model, vocab, bias=False)

    def decode(self, prefix, memory, src_allowed):
        allowed = real_tokens(prefix) & no_future(prefix.size(1), prefix.device)
        y = self.embed(prefix)
        for block in self.blocks:
            y = block(y, memory, allowed, src_allowed)
        return self.proj(y)

    @torch.no_grad()
    def greedy(self, src, bos, eos, max_len=128):
        src_allowed = real_tokens(src)
        memory = self.encoder(src, src_allowed)
        out = torch.full((src.size(0), 1), bos, dtype=torch.long, device=src.device)
        for _ in range(max_len):
            nxt = self.decode(out, memory, src_allowed)[:, -1].argmax(-1, keepdim=True)
            out = torch.cat([out, nxt], dim=1)
            if bool((nxt == eos).all()):
                break
        return out
