import torch
import torch.nn.functional as F


def chunked_prefill(q_chunks, k_chunks, v_chunks):
    # lists of (B, H, C, D) chunks of one long prompt
    ks, vs, outs = [], [], []
    for q, k, v in zip(q_chunks, k_chunks, v_chunks):
        ks.append(k)
        vs.append(v)
        K, V = torch.cat(ks, 2), torch.cat(vs, 2)
        past = K.size(2) - q.size(2)
        mask = torch.ones(q.size(2), K.size(2), dtype=torch.bool, device=q.device).tril(diagonal=past)
        outs.append(F.scaled_dot_product_attention(q, K, V, attn_mask=mask))
    return torch.cat(outs, 2)
