# case: fill-reformer-shared-qk-max-neg-value
# modelled-on: lucidrains/reformer-pytorch https://github.com/lucidrains/reformer-pytorch/pull/26
# label: correct
# pattern: Reformer full attention with shared query/key: keys are the l2-normalised queries, heads are merged into the batch before the call, attending to oneself is discouraged with a fixed -5e4 on the diagonal, and the padding mask is the outer product of the query and key keep-masks, applied with the dtype's max negative value
# why: the outer-product mask makes padded query rows fully masked, which is why PR #26 replaced float('-inf') by -finfo(dtype).max (a finite fill gives a uniform, not NaN, row); -5e4 is representable in fp16; dim is the per-head width because heads were folded into the batch
# looks-like: ATT007, ATT002, ATT004
import torch
import torch.nn as nn
import torch.nn.functional as F

TOKEN_SELF_ATTN_VALUE = -5e4  # carefully set for half precision to work


def default(val, default_val):
    return default_val if val is None else val


def max_neg_value(tensor):
    return -torch.finfo(tensor.dtype).max


class FullQKAttention(nn.Module):
    def __init__(self, causal = False, dropout = 0.):
        super().__init__()
        self.causal = causal
        self.dropout = nn.Dropout(dropout)

    def forward(self, qk, v, query_len = None, input_mask = None, input_attn_mask = None, **kwargs):
        b, seq_len, dim = qk.shape
        query_len = default(query_len, seq_len)
        t = query_len

        q = qk[:, 0:query_len]
        qk = F.normalize(qk, 2, dim=-1).type_as(q)

        dot = torch.einsum('bie,bje->bij', q, qk) * (dim ** -0.5)

        # qk attention requires tokens not attend to self
        i = torch.arange(t)
        dot[:, i, i] = TOKEN_SELF_ATTN_VALUE
        masked_value = max_neg_value(dot)

        # Input mask for padding in variable lengthed sequences
        if input_mask is not None:
            mask = input_mask[:, 0:query_len, None] * input_mask[:, None, :]
            mask = F.pad(mask, (0, seq_len - mask.shape[-1]), value=True)
            dot.masked_fill_(~mask, masked_value)

        # Mask for post qk attention logits of the input sequence
        if input_attn_mask is not None:
            input_attn_mask = F.pad(input_attn_mask, (0, seq_len - input_attn_mask.shape[-1]), value=True)
            dot.masked_fill_(~input_attn_mask, masked_value)

        if self.causal:
            i, j = torch.triu_indices(t, t, 1)
            dot[:, i, j] = masked_value

        dot = dot.softmax(dim=-1)
        dot = self.dropout(dot)

        out = torch.einsum('bij,bje->bie', dot, v)

        return out, dot, torch.empty(0)


class SelfAttention(nn.Module):
    def __init__(self, dim, heads = 8, causal = False, dropout = 0.):
        super().__init__()
        assert dim % heads == 0, 'dimensions must be divisible by number of heads'
        self.heads = heads
        self.toqk = nn.Linear(dim, dim, bias = False)
        self.tov = nn.Linear(dim, dim, bias = False)
        self.to_out = nn.Linear(dim, dim)
        self.attn_fn = FullQKAttention(causal = causal, dropout = dropout)

    def forward(self, x, input_mask = None):
        b, t, e, h = *x.shape, self.heads
        dh = e // h

        qk = self.toqk(x)
        v = self.tov(x)

        def merge_heads(v):
            return v.view(b, t, h, -1).transpose(1, 2)

        def merge_batch_and_heads(v):
            return v.reshape(b * h, t, -1)

        def split_heads(v):
            return v.view(b, h, t, -1).transpose(1, 2).contiguous()

        qk = merge_batch_and_heads(merge_heads(qk))
        v = merge_batch_and_heads(merge_heads(v))

        if input_mask is not None:
            input_mask = input_mask[:, None, :].expand(-1, h, -1).reshape(b * h, t)

        out, attn, _ = self.attn_fn(qk, v, input_mask = input_mask)
        out = split_heads(out).view(b, t, e)
        return self.to_out(out)
