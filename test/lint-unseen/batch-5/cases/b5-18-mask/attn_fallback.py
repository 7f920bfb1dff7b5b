# case: b5-18-mask
# modelled-on: art-test-stack/gpt-lab https://github.com/art-test-stack/gpt-lab/commit/420a7557f0cb2de7b4ee47bd68c4725395d4c44c
# label: buggy
# class: real-bug
# pattern: an SDPA fallback for a FlashAttention-style function (q, k, v as (B, T, H, D), window_size=(left, right)) used on GPUs without the fused kernel: one query needs no mask, equal lengths without a window use is_causal=True, and a sliding window builds its mask as triu(ones, 1) OR tril(ones, -window-1), the future and the keys older than the window, and passes it to F.scaled_dot_product_attention as attn_mask; the decoder block in another module calls it with each layer's window size from the config
# why: the mask is True at the positions that must be hidden, but a boolean attn_mask of SDPA is True where a query may attend: every windowed layer attends only to the future and to the keys outside its window; commit 420a755 rebuilds the mask as True = allowed ("PyTorch boolean masks use True for positions that are allowed to attend")
# source: https://github.com/art-test-stack/gpt-lab https://github.com/art-test-stack/gpt-lab/commit/420a7557f0cb2de7b4ee47bd68c4725395d4c44c src/gpt_lab/model/flash_attn.py
import torch
import torch.nn.functional as F


def sdpa_fallback(q, k, v, dropout_p=0.0, softmax_scale=None, window_size=(-1, -1), use_gqa=False):
    """q: (B, Tq, H, D), k, v: (B, Tk, Hkv, D) -> (B, Tq, H, D)."""
    Tq, Tk = q.size(1), k.size(1)
    if window_size is None:
        window_size = (-1, -1)
    window = window_size[0]
    q = q.transpose(1, 2)  # B, H, Tq, D
    k = k.transpose(1, 2)
    v = v.transpose(1, 2)
    device = q.device
    if Tq == 1:
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=dropout_p, is_causal=False, scale=softmax_scale)
    elif window < 0 or window >= Tq:
        assert Tq == Tk
        out = F.scaled_dot_product_attention(
            q, k, v, attn_mask=None, dropout_p=dropout_p, is_causal=True, scale=softmax_scale, enable_gqa=use_gqa
        )
    else:
        assert Tq == Tk
        # the future, and the keys further back than the window
        mask = torch.triu(torch.ones((Tq, Tq), device=device), diagonal=1)
        mask = torch.logical_or(mask, torch.tril(torch.ones((Tq, Tq), device=device), diagonal=-window - 1))
        out = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=mask,  # expect: ATT002
            dropout_p=dropout_p,
            is_causal=False,
            scale=softmax_scale,
            enable_gqa=use_gqa,
        )
    return out.transpose(1, 2)


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, window_size=(-1, -1)):
    use_gqa = k.size(-2) != q.size(-2)
    return sdpa_fallback(q, k, v, dropout_p=dropout_p, softmax_scale=softmax_scale, window_size=window_size, use_gqa=use_gqa)
