from torch import Tensor


def get_extended_attention_mask(attention_mask: Tensor, dtype) -> Tensor:
    # attention_mask: [batch_size, seq_length], 1 on real tokens, 0 on padding
    assert attention_mask.dim() == 2
    extended_attention_mask = attention_mask[:, None, None, :]  # [batch_size, 1, 1, seq_length] for the heads
    extended_attention_mask = extended_attention_mask.to(dtype=dtype)  # fp16 compatibility
    return (1.0 - extended_attention_mask) * -10000.0
