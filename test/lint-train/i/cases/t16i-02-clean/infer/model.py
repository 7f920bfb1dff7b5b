# case: t16i-02-clean
# modelled-on: AbdullahRasheed45/mini-gpt-inference https://github.com/AbdullahRasheed45/mini-gpt-inference/commit/4933fb11343f4459e7b3b1de7379e4f778055eec
# label: correct
# class: clean
# pattern: an inference engine for a small GPT: the attention writes the new k, v into a static KV cache and reads back the whole cached prefix; with an explicit additive mask from the batch module (left-padded prompts: finfo.min on future and pad columns, clamped to stay finite; decode steps: pad columns of the prompt only) it calls SDPA with attn_mask and is_causal=False; without one it sets is_causal = (kv_len == q_len) and asserts q_len == 1 otherwise
# why: correct: SDPA's causal mask is top-left aligned, so it is only right when queries and keys have the same length (fresh prefill); a single decode query may see the whole cache and gets is_causal=False; the additive biases come from a pad mask whose True means padding and put finfo.min exactly on the columns to hide
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/AbdullahRasheed45/mini-gpt-inference https://github.com/AbdullahRasheed45/mini-gpt-inference/commit/4933fb11343f4459e7b3b1de7379e4f778055eec src/minigpt_infer/model.py
import torch.nn as nn
import torch.nn.functional as F

from .masks import decode_bias, left_pad


class CachedSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, dropout=0.0):
        super().__init__()
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.dropout = dropout

    def forward(self, x, layer, cache=None, attn_mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        if cache is not None:
            cache.write(layer, k, v)
            k, v = cache.read(layer)
        p = self.dropout if self.training else 0.0
        if attn_mask is not None:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=p, is_causal=False)
        else:
            kv_len, q_len = k.shape[2], q.shape[2]
            causal = kv_len == q_len
            if not causal:
                assert q_len == 1, "a multi-token step over a filled cache needs an explicit mask"
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=p, is_causal=causal)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


def generate(model, cache, prompts, pad_id, steps):
    ids, positions, bias, pad_mask = left_pad(prompts, pad_id)
    logits = model(ids, positions, cache=cache, attn_mask=bias)
    out = [ids]
    for step in range(steps):
        nxt = logits[:, -1:].argmax(-1)
        out.append(nxt)
        mask = decode_bias(pad_mask, ids.shape[1] + step + 1, bias.dtype)
        logits = model(nxt, positions[:, -1:] + step + 1, cache=cache, attn_mask=mask)
    return out
