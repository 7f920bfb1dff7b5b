# case: t16i-06-fill
# modelled-on: NVIDIA-NeMo/Automodel https://github.com/NVIDIA-NeMo/Automodel/commit/40063a9dd13be8226f5df1f4bf98c3968387a679
# label: buggy
# class: real-bug
# pattern: a DeepSeek-V4 port trained in bfloat16: the mask builder makes an additive causal (and sliding-window) plane, triu(full(min_value), 1) with min_value = finfo(dtype).min, and for an HF 2-D keep mask (1 = valid) adds a second plane (1 - mask) * min_value on the padded key columns; the eager attention (other module) adds the result to the scaled scores, appends a per-head sink column and softmaxes
# why: buggy: a key that is both in the future (or outside the window) and padding gets min_value + min_value, which overflows bfloat16 to -inf; the -inf logit makes the softmax backward compute 0 * inf = NaN, the reported NaN grad norm at step 0 on every padded batch (NVBugs 6317402, fixed in PR #2658 by writing min_value once with torch.where)
# source: https://github.com/NVIDIA-NeMo/Automodel https://github.com/NVIDIA-NeMo/Automodel/pull/2658 nemo_automodel/components/models/deepseek_v4/layers.py
import torch


def build_causal_padding_mask(attention_mask, batch_size, seq_len, dtype, device, sliding_window=None):
    """Returns a [B, 1, S, S] additive mask (0 = keep, large negative = masked).

    attention_mask: 2-D [B, S] with 1 = valid, 0 = padding (HF convention), a 4-D additive mask, or None.
    """
    min_value = torch.finfo(dtype).min if dtype.is_floating_point else -1e9
    causal = torch.full((seq_len, seq_len), min_value, dtype=dtype, device=device)
    causal = torch.triu(causal, diagonal=1)
    if sliding_window is not None and sliding_window > 0:
        idx = torch.arange(seq_len, device=device)
        too_old = (idx.unsqueeze(1) - idx.unsqueeze(0)) >= sliding_window
        causal = causal.masked_fill(too_old, min_value)
    causal = causal.unsqueeze(0).unsqueeze(0)
    if attention_mask is None:
        return causal.expand(batch_size, 1, seq_len, seq_len).contiguous()
    if attention_mask.dim() == 4:
        return attention_mask.to(dtype)
    if attention_mask.dim() == 2:
        # 1 = valid, 0 = padding -> 0 keep, min_value mask, broadcast over query rows
        pad_add = (1.0 - attention_mask.to(dtype)) * min_value
        pad_add = pad_add.unsqueeze(1).unsqueeze(2)
        return (causal + pad_add).to(dtype)  # expect: ATT007
    raise ValueError(f"Unsupported attention_mask rank: {attention_mask.dim()}")
