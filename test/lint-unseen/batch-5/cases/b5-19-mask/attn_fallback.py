# case: b5-19-mask
# modelled-on: art-test-stack/gpt-lab https://github.com/art-test-stack/gpt-lab/commit/420a7557f0cb2de7b4ee47bd68c4725395d4c44c
# label: correct
# class: fixed
# pattern: after the fix: the SDPA fallback for a FlashAttention-style function keeps is_causal=True for equal lengths without a window and no mask for the non-causal case; otherwise it builds a boolean mask from query positions aligned to the end of the keys (arange(Tq) + Tk - Tq) and key positions, True where the key is not in the future and inside the left and right window, and passes it to SDPA; the decoder block in another module calls it with each layer's window size
# why: correct: the mask is True at the positions a query may attend, SDPA's boolean convention, and the query positions are aligned bottom-right, so a chunk of queries after cached keys is masked correctly too
# looks-like: ATT002, ATT008
# source: https://github.com/art-test-stack/gpt-lab https://github.com/art-test-stack/gpt-lab/commit/420a7557f0cb2de7b4ee47bd68c4725395d4c44c src/gpt_lab/model/flash_attn.py
import torch
import torch.nn.functional as F


def sdpa_fallback(q, k, v, dropout_p=0.0, softmax_scale=None, window_size=(-1, -1), use_gqa=False, causal=True):
    """q: (B, Tq, H, D), k, v: (B, Tk, Hkv, D) -> (B, Tq, H, D)."""
    Tq, Tk = q.size(1), k.size(1)
    if window_size is None:
        window_size = (-1, -1)
    left, right = window_size
    q = q.transpose(1, 2)  # B, H, Tq, D
    k = k.transpose(1, 2)
    v = v.transpose(1, 2)
    windowed = left >= 0 or right >= 0
    if causal and Tq == Tk and not windowed:
        out = F.scaled_dot_product_attention(
            q, k, v, attn_mask=None, dropout_p=dropout_p, is_causal=True, scale=softmax_scale, enable_gqa=use_gqa
        )
    elif not causal and not windowed:
        out = F.scaled_dot_product_attention(
            q, k, v, attn_mask=None, dropout_p=dropout_p, is_causal=False, scale=softmax_scale, enable_gqa=use_gqa
        )
    else:
        # queries sit at the end of the keys; True = may attend (SDPA's boolean convention)
        q_pos = torch.arange(Tq, device=q.device) + (Tk - Tq)
        k_pos = torch.arange(Tk, device=q.device)
        mask = torch.ones((Tq, Tk), device=q.device, dtype=torch.bool)
        if causal:
            mask &= k_pos.unsqueeze(0) <= q_pos.unsqueeze(1)
        if left >= 0:
            mask &= k_pos.unsqueeze(0) >= (q_pos - left).unsqueeze(1)
        if right >= 0:
            mask &= k_pos.unsqueeze(0) <= (q_pos + right).unsqueeze(1)
        out = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=mask,
            dropout_p=dropout_p,
            is_causal=False,
            scale=softmax_scale,
            enable_gqa=use_gqa,
        )
    return out.transpose(1, 2)


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, window_size=(-1, -1)):
    use_gqa = k.size(-2) != q.size(-2)
    return sdpa_fallback(q, k, v, dropout_p=dropout_p, softmax_scale=softmax_scale, window_size=window_size, use_gqa=use_gqa)
