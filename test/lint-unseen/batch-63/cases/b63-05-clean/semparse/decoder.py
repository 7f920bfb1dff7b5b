import torch
import torch.nn as nn

from .copy_pointer import CopyPointer
from .tensor_utils import lengths_to_mask, luong_dot_attention


class ActionDecoder(nn.Module):
    def __init__(self, hidden, att_size, use_cuda=False):
        super().__init__()
        self.use_cuda = use_cuda
        self.cell = nn.LSTMCell(att_size, hidden)
        self.mem_proj = nn.Linear(2 * hidden, hidden, bias=False)
        self.att_vec = nn.Linear(3 * hidden, att_size, bias=False)
        self.copy = CopyPointer(query_size=att_size, memory_size=2 * hidden)

    def forward(self, memory, src_lengths, inputs, state):
        pad_mask = lengths_to_mask(src_lengths, use_cuda=self.use_cuda)
        memory_proj = self.mem_proj(memory)
        att_vecs = []
        for x in inputs:
            h_t, c_t = self.cell(x, state)
            ctx, _ = luong_dot_attention(h_t, memory, memory_proj, pad_mask=pad_mask)
            att_t = torch.tanh(self.att_vec(torch.cat([h_t, ctx], 1)))
            att_vecs.append(att_t)
            state = (h_t, c_t)
        queries = torch.stack(att_vecs)  # (steps, batch, att_size)
        return self.copy(memory, pad_mask, queries)
