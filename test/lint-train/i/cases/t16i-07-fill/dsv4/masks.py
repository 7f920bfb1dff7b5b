# case: t16i-07-fill
# modelled-on: NVIDIA-NeMo/Automodel https://github.com/NVIDIA-NeMo/Automodel/commit/c5eb085978478b86d9595061e9e19667f82fabc0
# label: correct
# class: fixed
# pattern: the same DeepSeek-V4 mask builder after PR #2658: the causal / sliding-window plane is built as before (triu(full(finfo.min), 1)), and padded key columns of an HF 2-D keep mask are overwritten with torch.where(mask == 0, finfo.min, causal) instead of adding a second finfo.min plane; the eager sink attention (other module) adds the result to the scores in bfloat16
# why: correct: every masked cell holds exactly finfo(dtype).min, which is finite in bfloat16, so no -inf reaches the softmax and its backward; rows are never fully masked to -inf, and the sink column keeps the softmax defined
# looks-like: ATT002, ATT007
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
        # overwrite padded key columns with min_value instead of adding a second plane
        causal = causal.expand(attention_mask.shape[0], 1, seq_len, seq_len)
        is_pad_key = (attention_mask == 0).to(device).view(attention_mask.shape[0], 1, 1, seq_len)
        return torch.where(is_pad_key, torch.full((), min_value, dtype=dtype, device=device), causal).to(dtype)
    raise ValueError(f"Unsupported attention_mask rank: {attention_mask.dim()}")
