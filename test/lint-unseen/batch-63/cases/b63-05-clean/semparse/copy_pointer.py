# case: b63-05-clean
# modelled-on: pcyin/tranX https://github.com/pcyin/tranX/commit/dca34e813f2f6ebcb5dd29605e8fb1ec75c4a9bd
# label: correct
# class: clean
# pattern: a semantic parser's copy mechanism in a folder: `tensor_utils.py` turns source lengths into a mask that is 1 on *padding* by default (an option flips it) and holds the decoder's Luong dot-product attention, which fills that mask with -inf; `copy_pointer.py` scores every source token for every decoding step with a matmul between (batch, 1, src_len, dim) encodings and (batch, steps, dim, 1) queries, permutes the result to (steps, batch, src_len), expands the same padding mask over the steps and fills it with -inf before a softmax over the last axis; `decoder.py` builds the mask once with the default and hands it to both
# why: correct: the mask helper's default puts 1 (True) on positions past each sentence's length, so `masked_fill(pad_mask, -inf)` with no `== 0` hides exactly the padding; after the permute the last axis is src_len, so both softmaxes normalise over the source tokens; Luong dot attention and the copy pointer carry no 1/sqrt(d) factor in the parser's paper; every sentence has at least one token, so no row is all -inf
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/pcyin/tranX https://github.com/pcyin/tranX/commit/dca34e813f2f6ebcb5dd29605e8fb1ec75c4a9bd model/pointer_net.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class CopyPointer(nn.Module):
    def __init__(self, query_size, memory_size, kind="affine"):
        super().__init__()
        assert kind in ("affine", "dot_prod")
        self.kind = kind
        if kind == "affine":
            self.memory_to_query = nn.Linear(memory_size, query_size, bias=False)

    def forward(self, memory, pad_mask, queries):
        """memory: (batch, src_len, mem); pad_mask: (batch, src_len), 1 = pad; queries: (steps, batch, q)."""
        if self.kind == "affine":
            memory = self.memory_to_query(memory)
        memory = memory.unsqueeze(1)  # (batch, 1, src_len, q)
        q = queries.permute(1, 0, 2).unsqueeze(3)  # (batch, steps, q, 1)
        logits = torch.matmul(memory, q).squeeze(3)  # (batch, steps, src_len)
        logits = logits.permute(1, 0, 2)  # (steps, batch, src_len)
        if pad_mask is not None:
            pad_mask = pad_mask.unsqueeze(0).expand_as(logits)
            logits = logits.masked_fill(pad_mask, -float("inf"))
        return F.softmax(logits, dim=-1)
