# case: clean-lora-gpt2-pretransposed-keys-cache
# modelled-on: microsoft/LoRA https://github.com/microsoft/LoRA/blob/main/examples/NLG/src/model.py
# label: correct
# class: clean
# pattern: GPT-2 attention from the LoRA examples: split_heads(key, k=True) returns keys already permuted to (batch, head, head_features, seq), so the product is matmul(q, k) with no transpose; the scale sits behind a constructor flag set by the block; past keys are concatenated on the last axis; the causal buffer is sliced bottom-right (bias[:, :, ns-nd:ns, :ns]) and applied as w*b - 1e10*(1-b); a length mask fills -1e10 where keys are beyond len_kv
# why: the keys are laid out (head_features, seq) by split_heads, so q @ k contracts the features; the block builds the layer with scale=True and the scale is sqrt of v's head size (= k's); the ns-nd slice aligns the causal mask with cached keys; the multiply-subtract masks before the softmax, and -1e10 is finite in the float32 this code runs in
# looks-like: ATT003, ATT005, ATT006, ATT007, ATT008
# source: https://github.com/microsoft/LoRA https://github.com/microsoft/LoRA/commit/c4593f060e6a368d7bb5af5273b8e42810cdef90 examples/NLG/src/model.py
import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, nx, n_ctx, n_head, scale=False):
        super(Attention, self).__init__()
        n_state = nx
        assert n_state % n_head == 0
        self.register_buffer("bias", torch.tril(torch.ones(n_ctx, n_ctx)).view(1, 1, n_ctx, n_ctx))
        self.n_head = n_head
        self.split_size = n_state
        self.scale = scale
        self.c_attn = nn.Linear(nx, n_state * 3)
        self.c_proj = nn.Linear(n_state, nx)

    def _attn(self, q, k, v, len_kv=None):
        w = torch.matmul(q, k)
        if self.scale:
            w = w / math.sqrt(v.size(-1))
        nd, ns = w.size(-2), w.size(-1)
        b = self.bias[:, :, ns - nd:ns, :ns]
        w = w * b - 1e10 * (1 - b)

        # q : (batch, head, q_seq_length, head_features)
        # k : (batch, head, head_features, kv_seq_length)
        # w : (batch, head, q_seq_length, kv_seq_length)
        # v : (batch, head, kv_seq_length, head_features)
        if len_kv is not None:
            _len = torch.arange(k.size(-1), device=k.device)
            _input_msk = _len[None, :] >= (len_kv)[:, None]
            w = w.masked_fill(_input_msk.unsqueeze(1).unsqueeze(2), -1.0e10)

        w = nn.Softmax(dim=-1)(w)
        return torch.matmul(w, v)

    def merge_heads(self, x):
        x = x.permute(0, 2, 1, 3).contiguous()
        new_x_shape = x.size()[:-2] + (x.size(-2) * x.size(-1),)
        return x.view(*new_x_shape)

    def split_heads(self, x, k=False):
        new_x_shape = x.size()[:-1] + (self.n_head, x.size(-1) // self.n_head)
        x = x.view(*new_x_shape)
        if k:
            return x.permute(0, 2, 3, 1).contiguous()  # (batch, head, head_features, seq_length)
        return x.permute(0, 2, 1, 3).contiguous()  # (batch, head, seq_length, head_features)

    def forward(self, x, layer_past=None, len_past=None):
        x = self.c_attn(x)
        query, key, value = x.split(self.split_size, dim=2)
        query = self.split_heads(query)
        key = self.split_heads(key, k=True)
        value = self.split_heads(value)

        len_kv = None
        if layer_past is not None:
            if len_past is None:
                past_key, past_value = layer_past[0].transpose(-2, -1), layer_past[1]  # transpose back cf below
                key = torch.cat((past_key, key), dim=-1)
                value = torch.cat((past_value, value), dim=-2)
            else:
                _batch = torch.arange(0, key.shape[0], dtype=torch.long, device=key.device)
                past_key, past_value = layer_past[0], layer_past[1]
                past_key[_batch, :, len_past, :] = key.squeeze(-1)
                past_value[_batch, :, len_past, :] = value.squeeze(-2)
                key = past_key.transpose(-2, -1)
                value = past_value
                len_kv = len_past + 1

        present = torch.stack((key.transpose(-2, -1), value))  # same shapes for stacking
        a = self._attn(query, key, value, len_kv=len_kv)
        return self.c_proj(self.merge_heads(a)), present


class Block(nn.Module):
    def __init__(self, n_ctx, n_embd, n_head, scale=False):
        super(Block, self).__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = Attention(n_embd, n_ctx, n_head, scale)

    def forward(self, x, layer_past=None, len_past=None):
        a, present = self.attn(self.ln_1(x), layer_past=layer_past, len_past=len_past)
        return x + a, present


class Transformer(nn.Module):
    def __init__(self, n_layer, n_ctx, n_embd, n_head):
        super(Transformer, self).__init__()
        self.h = nn.ModuleList([Block(n_ctx, n_embd, n_head, scale=True) for _ in range(n_layer)])
