# case: t43dd-22-clean
# modelled-on: littlexi001/kv_cache https://github.com/littlexi001/kv_cache/commit/b0b34ca27ec06aec732da6cb2417ca395ada858b
# label: correct
# class: clean
# pattern: a replacement for Hugging Face Qwen3's eager attention function used to study sparse KV-cache retrieval at decode time: when there is ONE query (`query_states.shape[-2] == 1`) it attends either to the head and tail "edges" of the cache (two score blocks concatenated along the keys, one softmax, the weights split back and multiplied with the two value blocks) or to the keys of the top clusters gathered by index with a validity mask filled with the dtype minimum; otherwise (the prompt) it adds the model's additive causal mask, sliced to the key length, to the scores; no causal mask on the one-query paths
# why: correct: a single decoding query may see every cached key, so the one-query paths need no causal mask (only the gathered padding is hidden, `~valid`); the edges path softmaxes over the concatenated keys and splits the weights along that same axis before the two products, so each product sums over its own keys; the prompt path uses the additive mask Hugging Face builds for the cached layout, aligned by construction
# looks-like: ATT001, ATT002, ATT006, ATT008
# source: https://github.com/littlexi001/kv_cache https://github.com/littlexi001/kv_cache/commit/b0b34ca27ec06aec732da6cb2417ca395ada858b ymluo/projects/qwen3_cluster_kvcache_retrieval/src/cluster_kvcache_attention.py
import math

import torch
import torch.nn.functional as F


def repeat_kv(x, n):
    b, h, t, d = x.shape
    return x[:, :, None].expand(b, h, n, t, d).reshape(b, h * n, t, d)


def gather_clusters(keys, values, cluster_ids, size):
    # one query: cluster_ids is (B, H, 1, C)
    B, H, L, D = keys.shape
    pos = (cluster_ids.squeeze(-2).unsqueeze(-1) * size + torch.arange(size, device=keys.device)).reshape(B, H, -1)
    valid = pos < L
    idx = pos.clamp_max(L - 1).unsqueeze(-1).expand(B, H, pos.shape[-1], D)
    return keys.gather(2, idx), values.gather(2, idx), valid


def sparse_decode(q, keys, values, valid, scale):
    s = torch.matmul(q, keys.transpose(2, 3)) * scale
    s = s.masked_fill(~valid.unsqueeze(-2), torch.finfo(s.dtype).min)
    w = F.softmax(s, dim=-1, dtype=torch.float32).to(q.dtype)
    return torch.matmul(w, values).transpose(1, 2).contiguous(), w


def edges_decode(q, keys, values, ratio, scale):
    L = keys.shape[-2]
    n = min(L, max(1, math.ceil(ratio * L)))
    if 2 * n >= L:
        w = F.softmax(torch.matmul(q, keys.transpose(2, 3)) * scale, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(w, values).transpose(1, 2).contiguous(), w
    head_s = torch.matmul(q, keys[:, :, :n].transpose(2, 3)) * scale
    tail_s = torch.matmul(q, keys[:, :, L - n :].transpose(2, 3)) * scale
    w = F.softmax(torch.cat([head_s, tail_s], dim=-1), dim=-1, dtype=torch.float32).to(q.dtype)
    w_head, w_tail = w.split(n, dim=-1)
    out = torch.matmul(w_head, values[:, :, :n]) + torch.matmul(w_tail, values[:, :, L - n :])
    return out.transpose(1, 2).contiguous(), w


def retrieval_attention_forward(module, query, key, value, attention_mask, scaling=None, dropout=0.0, **kwargs):
    cfg = module.retrieval_config
    if key.shape[1] != query.shape[1]:
        key = repeat_kv(key, query.shape[1] // key.shape[1])
        value = repeat_kv(value, query.shape[1] // value.shape[1])
    if scaling is None:
        scaling = 1.0 / math.sqrt(query.shape[-1])
    if cfg.mode == "edges" and query.shape[-2] == 1:
        return edges_decode(query, key, value, cfg.edge_ratio, scaling)
    if cfg.mode == "cluster" and query.shape[-2] == 1:
        ids = module.select_clusters(query, key)
        k_sel, v_sel, valid = gather_clusters(key, value, ids, cfg.cluster_size)
        return sparse_decode(query, k_sel, v_sel, valid, scaling)

    scores = torch.matmul(query, key.transpose(2, 3)) * scaling
    if attention_mask is not None:
        scores = scores + attention_mask[:, :, :, : scores.shape[-1]]
    weights = F.softmax(scores, dim=-1, dtype=torch.float32).to(query.dtype)
    if dropout and module.training:
        weights = F.dropout(weights, p=dropout, training=True)
    out = torch.matmul(weights, value).transpose(1, 2).contiguous()
    return out, weights
