# case: t35bb-12-clean
# modelled-on: llm-random/llm-random https://github.com/llm-random/llm-random/commit/b65a1e35023f87e5420c12c0c1d7faface160505
# label: correct
# class: clean
# pattern: "blanks" experiments of a research LLM codebase: the data packer (another module) inserts blank tokens and builds a per-example boolean mask with `np.tril(np.ones((T, T), dtype=bool))` and a block set False (tokens after the blanks may not attend to them), the batch carries it as `attention_mask` [B, T, T]; the model's forward hands it to an attention manager that adds a heads axis in place (`mask.unsqueeze_(1)`) and sets it on every attention layer inside a context manager (`with self.attention_manager.set_mask(attention_mask):`), which clears it on exit; each layer reads `self.mask` and calls a mechanism that either passes it to SDPA as `attn_mask=` or, in the non-flash path, fills `masked_fill_(~mask, -inf)` on `einsum("... l h d, ... L h d -> ... h l L")` scores scaled by 1/sqrt(dhead)
# why: correct: the mask is a keep mask (True = attend): SDPA's boolean attn_mask attends where True, and `~mask` is what masked_fill must fill; it is causal (tril) and only removes the blank columns for later rows, so every row keeps its diagonal and none is all -inf; the mask reaches the layers through state set by a context manager rather than through arguments, and `unsqueeze_` changes the batch's tensor in place once per forward
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/llm-random/llm-random https://github.com/llm-random/llm-random/commit/b65a1e35023f87e5420c12c0c1d7faface160505 research/blanks/model.py
from collections import OrderedDict
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F


class BlankAttention(nn.Module):
    def __init__(self, dmodel: int, heads: int, dhead=None, flash=False):
        super().__init__()
        if dhead is None:
            assert dmodel % heads == 0
            dhead = dmodel // heads
        self.heads = heads
        self.dhead = dhead
        self.flash = flash
        self.input_projection = nn.Linear(dmodel, 3 * heads * dhead, bias=False)
        self.output_projection = nn.Linear(heads * dhead, dmodel, bias=False)
        self.mask = None

    def set_mask(self, mask: torch.Tensor):
        self.mask = mask

    def remove_mask(self):
        self.mask = None

    def forward(self, x):
        projected = self.input_projection(x)
        batch, seq_len = x.shape[:-1]
        projected = projected.view(batch, seq_len, self.heads, 3 * self.dhead).transpose(1, 2)
        q, k, v = torch.chunk(projected, chunks=3, dim=-1)
        attention_output = custom_mask_attention_mechanism(
            query=q, key=k, value=v, dhead=self.dhead, mask=self.mask.to(x.device), flash=self.flash,
        )
        return self.output_projection(attention_output.transpose(1, 2).flatten(-2))


def custom_mask_attention_mechanism(query, key, value, dhead: int, mask: torch.Tensor, flash: bool):
    if flash:
        with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False, enable_mem_efficient=False):
            output = F.scaled_dot_product_attention(query=query, key=key, value=value, attn_mask=mask)
    else:
        # implementation without flash assumes other dim order
        query = query.transpose(1, 2)
        key = key.transpose(1, 2)
        value = value.transpose(1, 2)
        a = torch.einsum("... l h d, ... L h d -> ... h l L", query, key)
        a = a * (1 / dhead**0.5)
        a.masked_fill_(~mask, float("-inf"))
        a = torch.softmax(a, dim=-1)
        output = torch.einsum("... h l L, ... L h d -> ... l h d", a, value)
        output = output.transpose(1, 2)
    return output


class MaskSetter:
    def __init__(self, layers: List[BlankAttention], mask: torch.Tensor):
        self.layers = layers
        self.mask = mask

    def __enter__(self):
        for layer in self.layers:
            layer.set_mask(self.mask)

    def __exit__(self, exc_type, exc_value, exc_traceback):
        for layer in self.layers:
            layer.remove_mask()


class BlankAttentionManager:
    def __init__(self, model: nn.Module):
        self._layers = [layer for _, layer in model.named_modules() if isinstance(layer, BlankAttention)]

    def set_mask(self, mask: torch.Tensor):
        mask.unsqueeze_(1)  # heads axis
        return MaskSetter(self._layers, mask)


class Block(nn.Module):
    def __init__(self, dmodel, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dmodel)
        self.attention = BlankAttention(dmodel, heads)
        self.ln2 = nn.LayerNorm(dmodel)
        self.ff = nn.Sequential(nn.Linear(dmodel, 4 * dmodel), nn.ReLU(), nn.Linear(4 * dmodel, dmodel))

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.ff(self.ln2(x))


class BlankLLM(nn.Module):
    def __init__(self, vocab_size, dmodel=256, heads=4, n_blocks=4, max_length=512):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dmodel)
        self.positions = nn.Embedding(max_length, dmodel)
        self.encoder = nn.Sequential(OrderedDict((f"block_{i}", Block(dmodel, heads)) for i in range(n_blocks)))
        self.head = nn.Linear(dmodel, vocab_size)
        self.attention_manager = BlankAttentionManager(self)

    def forward(self, input_tokens, attention_mask):
        with self.attention_manager.set_mask(attention_mask):
            pos = torch.arange(input_tokens.shape[1], device=input_tokens.device)
            x = self.embedding(input_tokens) + self.positions(pos)[None]
            return self.head(self.encoder(x))
