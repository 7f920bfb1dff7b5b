import torch
import torch.nn as nn

from .attention import CausalMHA


class TinyLM(nn.Module):
    def __init__(self, vocab_size: int, dim: int = 128, heads: int = 4, block_size: int = 128):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim)
        self.pos = nn.Embedding(block_size, dim)
        self.attn = CausalMHA(dim, heads, block_size)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab_size, bias=False)

    def forward_cached(self, ids, cache=None, position_offset=0):
        positions = torch.arange(position_offset, position_offset + ids.size(1), device=ids.device)
        x = self.tok(ids) + self.pos(positions)
        past_k, past_v = cache if cache is not None else (None, None)
        h, k, v = self.attn.forward_with_cache(x, past_k, past_v)
        return self.head(self.norm(x + h)), (k, v)


@torch.no_grad()
def generate(model: TinyLM, prompt_ids, max_new_tokens=50):
    ids = torch.tensor([prompt_ids], dtype=torch.long)
    logits, cache = model.forward_cached(ids, cache=None, position_offset=0)  # prefill
    out = list(prompt_ids)
    for _ in range(max_new_tokens):
        next_id = int(torch.argmax(logits[0, -1]))
        out.append(next_id)
        step = torch.tensor([[next_id]], dtype=torch.long)
        logits, cache = model.forward_cached(step, cache=cache, position_offset=cache[0].size(-2))
    return out
