import torch
import torch.nn as nn

from nano.attention import CausalSelfAttention


def document_causal_mask(idx, eod_id):
    """[B, 1, T, T] bool, True = attend: causal and inside the same EOD-delimited document."""
    b, t = idx.shape
    is_eod = (idx == eod_id).to(torch.int32)
    # segment id of position k = number of EOD tokens strictly before k
    seg = nn.functional.pad(is_eod.cumsum(dim=1)[:, :-1], (1, 0), value=0)
    same_doc = seg.unsqueeze(2) == seg.unsqueeze(1)
    causal = torch.tril(torch.ones(t, t, dtype=torch.bool, device=idx.device))
    return (same_doc & causal).unsqueeze(1)


class PackedGPT(nn.Module):
    def __init__(self, vocab_size, n_embd=256, n_head=4, n_layer=4, block_size=512, eod_id=0, use_eod_mask=True):
        super().__init__()
        self.eod_id = eod_id
        self.use_eod_mask = use_eod_mask
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.attns = nn.ModuleList([CausalSelfAttention(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.norms = nn.ModuleList([nn.LayerNorm(n_embd) for _ in range(n_layer)])
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx):
        t = idx.size(1)
        x = self.wte(idx) + self.wpe(torch.arange(t, device=idx.device))
        attn_mask = document_causal_mask(idx, self.eod_id) if self.use_eod_mask else None
        for norm, attn in zip(self.norms, self.attns):
            x = x + attn(norm(x), attn_mask=attn_mask)
        return self.head(x)
