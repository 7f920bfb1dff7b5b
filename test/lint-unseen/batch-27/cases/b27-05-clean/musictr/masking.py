import torch


def sequence_mask(length, max_length=None):
    """TensorFlow's tf.sequence_mask: True where the position is below the row's length."""
    if max_length is None:
        max_length = length.max()
    x = torch.arange(max_length, dtype=length.dtype, device=length.device)
    return x.unsqueeze(0) < length.unsqueeze(1)


def look_ahead_with_pad(size, tokens, pad_token):
    tokens = tokens[:, None, None, :]
    is_pad = tokens == torch.ones_like(tokens) * pad_token
    # row i of sequence_mask(arange(1, size + 1)) is True for j <= i; reversed, True for the future j > i
    future = ~sequence_mask(torch.arange(1, size + 1).to(tokens.device), size)
    return is_pad | future  # (B, 1, size, size): True = do not attend
