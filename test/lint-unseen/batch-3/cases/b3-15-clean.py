# case: b3-15-clean
# modelled-on: singhgautam/slate https://github.com/singhgautam/slate/issues/3
# label: correct
# class: clean
# pattern: multi-head slot attention: keys are pre-scaled by (slot_size // heads) ** -0.5, the logits are matmul(k, q^T) with the inputs on the rows and the slots on the columns, (B, heads, N_in, N_slots), and the softmax runs over the heads and slots together after a transpose and reshape to (B, N_in, heads * N_slots); the weights are then renormalised over the inputs for a weighted mean; a plain multi-head attention beside it fills a boolean attn_mask (True = blocked) with -inf
# why: slot attention normalises over the slots so that the slots compete for each input (the reshape makes the heads compete too, deliberately); the keys carry the 1/sqrt(d) scale; matmul(k, q^T) puts inputs on the rows on purpose, and the renormalisation over dim=-2 is the weighted mean over inputs; the second module's mask is True where attention is not allowed
# looks-like: ATT001, ATT002, ATT003, ATT005, ATT006
# source: https://github.com/singhgautam/slate https://github.com/singhgautam/slate/issues/3 slot_attn.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class SlotAttention(nn.Module):
    def __init__(self, num_iterations, num_slots, input_size, slot_size, mlp_hidden_size, heads, epsilon=1e-8):
        super().__init__()
        self.num_iterations = num_iterations
        self.num_slots = num_slots
        self.slot_size = slot_size
        self.num_heads = heads
        self.epsilon = epsilon
        self.norm_inputs = nn.LayerNorm(input_size)
        self.norm_slots = nn.LayerNorm(slot_size)
        self.project_q = nn.Linear(slot_size, slot_size, bias=False)
        self.project_k = nn.Linear(input_size, slot_size, bias=False)
        self.project_v = nn.Linear(input_size, slot_size, bias=False)
        self.gru = nn.GRUCell(slot_size, slot_size)

    def forward(self, inputs, slots):
        B, N_kv, _ = inputs.size()
        B, N_q, _ = slots.size()
        inputs = self.norm_inputs(inputs)
        k = self.project_k(inputs).view(B, N_kv, self.num_heads, -1).transpose(1, 2)  # (B, heads, N_in, d)
        v = self.project_v(inputs).view(B, N_kv, self.num_heads, -1).transpose(1, 2)
        k = ((self.slot_size // self.num_heads) ** (-0.5)) * k

        for _ in range(self.num_iterations):
            slots_prev = slots
            slots = self.norm_slots(slots)
            q = self.project_q(slots).view(B, N_q, self.num_heads, -1).transpose(1, 2)  # (B, heads, N_slots, d)
            attn_logits = torch.matmul(k, q.transpose(-1, -2))  # (B, heads, N_in, N_slots)
            attn = F.softmax(attn_logits.transpose(1, 2).reshape(B, N_kv, self.num_heads * N_q), dim=-1)
            attn = attn.view(B, N_kv, self.num_heads, N_q).transpose(1, 2)  # (B, heads, N_in, N_slots)
            attn_vis = attn.sum(1)

            # weighted mean over the inputs
            attn = attn + self.epsilon
            attn = attn / torch.sum(attn, dim=-2, keepdim=True)
            updates = torch.matmul(attn.transpose(-1, -2), v)  # (B, heads, N_slots, d)
            updates = updates.transpose(1, 2).reshape(B, N_q, -1)
            slots = self.gru(updates.reshape(-1, self.slot_size), slots_prev.reshape(-1, self.slot_size))
            slots = slots.view(-1, self.num_slots, self.slot_size)
        return slots, attn_vis


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, dropout=0.0):
        super().__init__()
        self.num_heads = num_heads
        self.attn_dropout = nn.Dropout(dropout)
        self.proj_q = nn.Linear(d_model, d_model, bias=False)
        self.proj_k = nn.Linear(d_model, d_model, bias=False)
        self.proj_v = nn.Linear(d_model, d_model, bias=False)
        self.proj_o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, q, k, v, attn_mask=None):
        """attn_mask: (target_len, source_len), True where attention is not allowed."""
        B, T, _ = q.shape
        _, S, _ = k.shape
        q = self.proj_q(q).view(B, T, self.num_heads, -1).transpose(1, 2)
        k = self.proj_k(k).view(B, S, self.num_heads, -1).transpose(1, 2)
        v = self.proj_v(v).view(B, S, self.num_heads, -1).transpose(1, 2)
        q = q * (q.shape[-1] ** (-0.5))
        attn = torch.matmul(q, k.transpose(-1, -2))
        if attn_mask is not None:
            attn = attn.masked_fill(attn_mask, float("-inf"))
        attn = F.softmax(attn, dim=-1)
        out = torch.matmul(self.attn_dropout(attn), v).transpose(1, 2).reshape(B, T, -1)
        return self.proj_o(out)
