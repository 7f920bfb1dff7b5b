# case: b59-02-softmax
# modelled-on: ixaxaar/seq2seq-dnc https://github.com/ixaxaar/seq2seq-dnc/commit/c9735ea6392112ba965aa2b88a610d4b4e722577
# label: buggy
# class: real-bug
# pattern: the read side of a differentiable neural computer's memory: each of r read heads mixes three attention distributions over the memory slots (backward and forward along the temporal link matrix, and by content) with read-mode weights taken from the interface vector, laid out (b, r, 3) and indexed by mode on the last axis (`modes[:, :, 0:1]` backward, `1:2` forward, `2` content); the modes are normalised by a softmax-over-an-axis helper called with axis 1
# why: buggy: the read modes of a DNC are a distribution over the three modes for every read head (the paper's softmax over modes; the repository's own earlier commit 0156c3f laid them out (b, 3, r) and normalised over axis 1, the modes); after the layout changed to (b, r, 3), as the comment and the indexing on the last axis say, the helper still normalises over axis 1, now the read heads, so a head's three mode weights no longer sum to one (and with one read head every weight is 1), and the mix of backward, forward and content reads is wrong
# source: https://github.com/ixaxaar/seq2seq-dnc https://github.com/ixaxaar/seq2seq-dnc/commit/c9735ea6392112ba965aa2b88a610d4b4e722577 src/dnc/memory.py
import torch
import torch.nn as nn
import torch.nn.functional as F


def normalise_over(x, axis):
    """Softmax over one axis of an n-d tensor."""
    return x.transpose(axis, -1).softmax(-1).transpose(axis, -1)


def cosine(memory, keys, eps=1e-6):
    """memory (b, m, w), keys (b, r, w) -> (b, r, m)."""
    return torch.einsum("bmw,brw->brm", F.normalize(memory, dim=2, eps=eps), F.normalize(keys, dim=2, eps=eps))


class MemoryReader(nn.Module):
    SIZES = {"keys": "rw", "strengths": "r", "modes": "r3"}

    def __init__(self, controller_size, mem_size=512, cell_size=32, read_heads=4):
        super().__init__()
        self.m, self.w, self.r = mem_size, cell_size, read_heads
        widths = {"r": read_heads, "rw": read_heads * cell_size, "r3": 3 * read_heads}
        self.heads = nn.ModuleDict({name: nn.Linear(controller_size, widths[kind]) for name, kind in self.SIZES.items()})

    def directional(self, links, prev_read):
        """links (b, 1, m, m), prev_read (b, r, m) -> forward and backward weights, each (b, r, 1, m)."""
        rw = prev_read.unsqueeze(1)
        fwd = torch.matmul(links, rw.transpose(2, 3)).transpose(2, 3)
        bwd = torch.matmul(rw, links)
        return fwd.transpose(1, 2), bwd.transpose(1, 2)

    def read_weights(self, content, links, modes, prev_read):
        fwd, bwd = self.directional(links, prev_read)
        by_content = modes[:, :, 2].unsqueeze(2) * content
        backward = torch.sum(modes[:, :, 0:1].unsqueeze(3) * bwd, 2)
        forward = torch.sum(modes[:, :, 1:2].unsqueeze(3) * fwd, 2)
        return backward + by_content + forward

    def forward(self, xi, state):
        b = xi.size(0)
        keys = self.heads["keys"](xi).view(b, self.r, self.w)
        strengths = F.softplus(self.heads["strengths"](xi)).view(b, self.r, 1)
        # read modes (b * r * 3): backward, forward, content for every read head
        modes = normalise_over(self.heads["modes"](xi).view(b, self.r, 3), 1)  # expect: ATT001

        content = normalise_over(cosine(state["memory"], keys) * strengths, 2)  # (b, r, m) over the slots
        weights = self.read_weights(content, state["link_matrix"], modes, state["read_weights"])
        state["read_weights"] = weights
        return torch.bmm(weights, state["memory"]), state
