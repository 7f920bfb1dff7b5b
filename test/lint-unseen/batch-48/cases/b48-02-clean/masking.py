import keras.ops as K


def keep_padding(tokens, pad_id=0, past_len=0):
    """(B, 1, 1, past_len + T): True on real tokens (cached positions are real)."""
    keep = K.not_equal(tokens, pad_id)
    if past_len:
        keep = K.concatenate([K.ones((K.shape(tokens)[0], past_len), "bool"), keep], axis=1)
    return keep[:, None, None, :]


def keep_past(new_len, total_len=None):
    """(1, 1, new_len, total_len): key j is visible to query i when j - offset <= i."""
    offset = 0 if total_len is None else total_len - new_len
    keys = K.arange(-offset, new_len)[None, :]
    queries = K.arange(new_len)[:, None]
    return (keys <= queries)[None, None, :, :]


def decoder_mask(tokens, past_len=0, causal=True):
    keep = keep_padding(tokens, past_len=past_len)
    new_len = K.shape(tokens)[1]
    if not causal:
        return keep
    return K.logical_and(keep, keep_past(new_len, new_len + past_len if past_len else None))
