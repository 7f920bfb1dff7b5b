# case: b19-05-clean
# modelled-on: yolomeus/multihop-attention-pytorch https://github.com/yolomeus/multihop-attention-pytorch/commit/ae8d30467310a9e06c997d03f5b003b8a47045c4
# label: correct
# class: clean
# pattern: answer-selection attention layers (multihop attention networks): an MLP attention combines batched answer states (batch, len, h) with a question vector (batch, h) through tanh and a (h, 1) projection, giving (batch, len, 1) scores normalised with torch.softmax(U, dim=1); a bilinear attention scores torch.sum(M * states, dim=2) as (batch, len) and softmaxes over dim=1 without any scale; a multi-hop layer repeats the MLP form per step with a memory vector; pooling sums (or maxes) states * alpha over dim 1
# why: correct: dim=1 is the token axis of both (batch, len, 1) and (batch, len) scores, so each answer's weights sum to one over its tokens (the last axis of the 3-D scores has size 1 and is not the one to normalise); bilinear and additive attention have no 1/sqrt(d) in the papers these layers implement
# looks-like: ATT001, ATT003
# source: https://github.com/yolomeus/multihop-attention-pytorch https://github.com/yolomeus/multihop-attention-pytorch/commit/ae8d30467310a9e06c997d03f5b003b8a47045c4 model.py
import torch
import torch.nn as nn


def _pool(states, alpha, pooling):
    if pooling == "max":
        return torch.max(states * alpha, 1)[0]
    if pooling == "mean":
        return torch.mean(states * alpha, 1)
    if pooling == "raw":
        return states * alpha
    return torch.sum(states * alpha, 1)


class MLPAttention(nn.Module):
    def __init__(self, hidden, activation="tanh"):
        super().__init__()
        self.act = nn.Tanh() if activation == "tanh" else nn.Sigmoid()
        self.w_states = nn.Parameter(torch.empty(hidden, hidden).uniform_(-0.1, 0.1))
        self.w_query = nn.Parameter(torch.empty(hidden, hidden).uniform_(-0.1, 0.1))
        self.w_out = nn.Parameter(torch.empty(hidden, 1).uniform_(-0.1, 0.1))

    def forward(self, states, query, pooling="sum"):
        m = torch.bmm(states, self.w_states.unsqueeze(0).expand(states.size(0), *self.w_states.size()))
        m = m + torch.mm(query, self.w_query).unsqueeze(1).expand_as(m)  # batch x len x h
        u = torch.bmm(self.act(m), self.w_out.unsqueeze(0).expand(m.size(0), *self.w_out.size()))
        alpha = torch.softmax(u, dim=1)  # batch x len x 1
        return _pool(states, alpha, pooling)


class BilinearAttention(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.w = nn.Parameter(torch.empty(hidden, hidden).uniform_(-0.1, 0.1))

    def forward(self, states, query, pooling="sum"):
        m = torch.mm(query, self.w).unsqueeze(1).expand_as(states)  # batch x len x h
        alpha = torch.softmax(torch.sum(m * states, dim=2), dim=1)  # batch x len
        alpha = alpha.unsqueeze(2).expand_as(states)
        return _pool(states, alpha, pooling)


class MultiHopAttention(nn.Module):
    def __init__(self, hidden, steps=2):
        super().__init__()
        self.steps = steps
        self.w_in = nn.ParameterList([nn.Parameter(torch.empty(hidden, hidden).uniform_(-0.1, 0.1)) for _ in range(steps)])
        self.w_mem = nn.ParameterList([nn.Parameter(torch.empty(hidden, hidden).uniform_(-0.1, 0.1)) for _ in range(steps)])
        self.w_out = nn.ParameterList([nn.Parameter(torch.empty(hidden, 1).uniform_(-0.1, 0.1)) for _ in range(steps)])

    def forward(self, states, qvector=None):
        memory = torch.mean(states, 1) * qvector if qvector is not None else torch.mean(states, 1)
        attended = [torch.mean(states, 1)]
        for step in range(self.steps):
            if step > 0:
                memory = memory + attended[step - 1] * qvector if qvector is not None else memory + attended[step - 1]
            m = torch.tanh(torch.bmm(states, self.w_in[step].unsqueeze(0).expand(states.size(0), *self.w_in[step].size())))
            m = m * torch.tanh(torch.mm(memory, self.w_mem[step])).unsqueeze(1).expand_as(m)
            u = torch.bmm(m, self.w_out[step].unsqueeze(0).expand(m.size(0), *self.w_out[step].size()))
            alpha = torch.softmax(u, dim=1)  # batch x len x 1
            attended.append(torch.sum(states * alpha, 1))
        return attended
