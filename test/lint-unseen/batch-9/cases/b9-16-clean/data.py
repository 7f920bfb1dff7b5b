from typing import Optional, Tuple

from torch import Tensor

from attention import allowed_positions_to_attend


def build_tgt_mask(tgt_tokens: Tensor, padding_token: int) -> Tensor:
    """Target positions each decoder position may attend: not padding and not in the future (True = allowed)."""
    tgt_mask = (tgt_tokens != padding_token).unsqueeze(dim=-2)
    return tgt_mask & allowed_positions_to_attend(n_positions=tgt_tokens.size(-1)).type_as(tgt_mask)


def build_mini_batch(src_tokens: Tensor, padding_token: int, tgt_tokens: Optional[Tensor] = None) -> Tuple[Tensor, ...]:
    # every non-padding source position may be attended, by the encoder and by the decoder
    src_mask = (src_tokens != padding_token).unsqueeze(dim=-2)
    if tgt_tokens is None:
        return (src_tokens, src_mask)
    tgt_input = tgt_tokens[:, :-1]
    return (src_tokens, src_mask, tgt_input, tgt_tokens[:, 1:], build_tgt_mask(tgt_input, padding_token))
