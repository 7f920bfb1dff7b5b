# case: softmax-linear-attention-k-dim-minus2
# modelled-on: lucidrains/linear-attention-transformer https://github.com/lucidrains/linear-attention-transformer/issues/14
# label: correct
# pattern: efficient (linear) attention: instead of softmax(QK^T) the queries are softmaxed over their feature axis and the keys over their sequence axis (dim=-2), padded keys are zeroed before that, then the (d x e) context k^T v is formed first; q is multiplied by dim ** -0.5 after its softmax
# why: this is Shen et al.'s efficient attention, where the two separate softmaxes (q over features, k over positions) are the intended normalisations; the issue reporter agreed it is equivalent and closed it
# looks-like: ATT001, ATT003, ATT004
import torch
import torch.nn.functional as F
from torch import nn


def default(value, d):
    return d if value is None else value


def max_neg_value(tensor):
    return -torch.finfo(tensor.dtype).max


def linear_attn(q, k, v, kv_mask = None):
    dim = q.shape[-1]

    if kv_mask is not None:
        mask_value = max_neg_value(q)
        mask = kv_mask[:, None, :, None]
        k = k.masked_fill_(~mask, mask_value)
        v = v.masked_fill_(~mask, 0.)
        del mask

    q = q.softmax(dim=-1)
    k = k.softmax(dim=-2)

    q = q * dim ** -0.5

    context = torch.einsum('bhnd,bhne->bhde', k, v)
    attn = torch.einsum('bhnd,bhde->bhne', q, context)
    return attn.reshape(*q.shape)


def causal_linear_attn(q, k, v, kv_mask = None, bucket_size = None, eps = 1e-3):
    b, h, n, e, dtype = *q.shape, q.dtype
    bucket_size = default(bucket_size, 64)
    bucket_size = max(bucket_size, 1)
    assert bucket_size == 0 or (n % bucket_size) == 0, f'sequence length {n} must be divisible by the bucket size {bucket_size} for causal linear attention'

    q = q.softmax(dim=-1)
    k = torch.exp(k).type(dtype).clone()

    q = q * e ** -0.5

    if kv_mask is not None:
        mask = kv_mask[:, None, :, None]
        k = k.masked_fill_(~mask, 0.)
        v = v.masked_fill_(~mask, 0.)
        del mask

    bucket_fn = lambda x: x.reshape(*x.shape[:-2], -1, bucket_size, e)
    b_q, b_k, b_v = map(bucket_fn, (q, k, v))

    b_k_sum = b_k.sum(dim=-2)
    b_k_cumsum = b_k_sum.cumsum(dim = -2).type(dtype)

    context = torch.einsum('bhund,bhune->bhude', b_k, b_v)
    context = context.cumsum(dim = -3).type(dtype)

    if bucket_size > 1:
        context = F.pad(context, (0, 0, 0, 0, 1, 0), value = 0.)
        context, _ = split_at_index(2, -1, context)

        b_k_cumsum = F.pad(b_k_cumsum, (0, 0, 1, 0), value = 0.)
        b_k_cumsum, _ = split_at_index(2, -1, b_k_cumsum)

    D_inv = 1. / torch.einsum('bhud,bhund->bhun', b_k_cumsum, b_q).clamp(min = eps)
    attn = torch.einsum('bhund,bhude,bhun->bhune', b_q, context, D_inv)
    return attn.reshape(*q.shape)


def split_at_index(dim, index, t):
    pre_slices = (slice(None),) * dim
    l = (*pre_slices, slice(None, index))
    r = (*pre_slices, slice(index, None))
    return t[l], t[r]


class SelfAttention(nn.Module):
    def __init__(self, dim, heads, causal = False, dim_head = None, dropout = 0.):
        super().__init__()
        assert dim_head or (dim % heads) == 0, 'embedding dimension must be divisible by number of heads'
        d_heads = default(dim_head, dim // heads)

        self.heads = heads
        self.d_heads = d_heads
        self.causal = causal

        self.to_q = nn.Linear(dim, d_heads * heads, bias = False)
        self.to_k = nn.Linear(dim, d_heads * heads, bias = False)
        self.to_v = nn.Linear(dim, d_heads * heads, bias = False)
        self.to_out = nn.Linear(d_heads * heads, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, input_mask = None):
        b, t, e, h, dh = *x.shape, self.heads, self.d_heads

        q, k, v = (self.to_q(x), self.to_k(x), self.to_v(x))

        merge_heads = lambda x: x.reshape(*x.shape[:2], -1, dh).transpose(1, 2)
        q, k, v = map(merge_heads, (q, k, v))

        attn_fn = causal_linear_attn if self.causal else linear_attn
        out = attn_fn(q, k, v, kv_mask = input_mask)

        out = out.transpose(1, 2).reshape(b, t, -1)
        return self.dropout(self.to_out(out))
