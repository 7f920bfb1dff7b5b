# case: b59-08-clean
# modelled-on: ixaxaar/seq2seq-dnc https://github.com/ixaxaar/seq2seq-dnc/commit/c9735ea6392112ba965aa2b88a610d4b4e722577
# label: correct
# class: clean
# pattern: the external memory of a differentiable neural computer used inside a seq2seq encoder (a folder: `addressing.py` holds the cosine similarity and a softmax-along-an-axis helper that moves the axis last and calls `F.softmax` without `dim` on a 2-d view); read and write heads address memory by content: cosine scores (b, heads, slots) times a softplus key strength, normalised with `softmax_along(scores, 2)`, then read as `bmm(weights, memory)` and written with erase and add vectors through the transposed weights
# why: correct: axis 2 of the (b, heads, slots) scores is the memory-slot axis, the one content addressing normalises over (one distribution over slots per head); the helper moves it last and a 2-d softmax without `dim` normalises over dim 1, the last axis of the view; the key strength is DNC's learned sharpness (no 1/sqrt(d) belongs to cosine addressing); reads sum over the slots with `bmm(weights, memory)`, and writes spread the write vector over the slots with the transposed weights
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/ixaxaar/seq2seq-dnc https://github.com/ixaxaar/seq2seq-dnc/commit/c9735ea6392112ba965aa2b88a610d4b4e722577 src/dnc/memory.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from addressing import EPS, cosine_scores, oneplus, softmax_along


class ContentMemory(nn.Module):
    def __init__(self, input_size, slots=512, cell_width=32, read_heads=4):
        super().__init__()
        self.slots, self.cell_width, self.read_heads = slots, cell_width, read_heads
        w, r = cell_width, read_heads
        self.read_keys = nn.Linear(input_size, w * r)
        self.read_strengths = nn.Linear(input_size, r)
        self.write_key = nn.Linear(input_size, w)
        self.write_strength = nn.Linear(input_size, 1)
        self.erase = nn.Linear(input_size, w)
        self.add = nn.Linear(input_size, w)
        self.write_gate = nn.Linear(input_size, 1)

    def initial_state(self, batch_size=1, device=None):
        return {
            "memory": torch.full((batch_size, self.slots, self.cell_width), EPS, device=device),
            "read_weights": torch.full((batch_size, self.read_heads, self.slots), EPS, device=device),
            "write_weights": torch.full((batch_size, 1, self.slots), EPS, device=device),
        }

    def address(self, memory, keys, strengths):
        """keys: (b, heads, w); strengths: (b, heads) -> weights over the slots (b, heads, slots)."""
        similarity = cosine_scores(memory, keys)
        sharpness = F.softplus(strengths).unsqueeze(2)
        return softmax_along(similarity * sharpness, 2)

    def write(self, state, key, strength, erase, add, gate):
        weights = gate.unsqueeze(-1) * self.address(state["memory"], key, strength)  # (b, 1, slots)
        keep = torch.prod(1 - weights.unsqueeze(3) * erase.unsqueeze(2), 1)  # (b, slots, w)
        state["memory"] = state["memory"] * keep + torch.bmm(weights.transpose(1, 2), add)
        state["write_weights"] = weights
        return state

    def read(self, state, keys, strengths):
        weights = self.address(state["memory"], keys, strengths)
        state["read_weights"] = weights
        return torch.bmm(weights, state["memory"]), state  # (b, heads, w)

    def forward(self, xi, state):
        b = xi.size(0)
        w, r = self.cell_width, self.read_heads
        state = self.write(
            state,
            self.write_key(xi).view(b, 1, w),
            self.write_strength(xi).view(b, 1),
            torch.sigmoid(self.erase(xi)).view(b, 1, w),
            self.add(xi).view(b, 1, w),
            torch.sigmoid(self.write_gate(xi)).view(b, 1),
        )
        return self.read(state, self.read_keys(xi).view(b, r, w), oneplus(self.read_strengths(xi)).view(b, r))
