from keras import backend as K


def token_mask(ids, padding_id=1):
    """1 for real tokens, 0 for padding (int32)."""
    return K.cast(K.not_equal(ids, padding_id), dtype="int32")


def multiply_by_mask(x, mask):
    """Zero the masked steps of x; a (batch, steps) mask is given a trailing axis first."""
    if mask is None:
        return x, None
    if K.ndim(mask) == K.ndim(x) - 1:
        mask = K.expand_dims(mask)
    mask = K.cast(mask, K.dtype(x))
    return x * mask, mask


def sentence_mask(word_mask):
    """(batch, sentences, words) word mask -> 1 where a sentence holds any word."""
    if word_mask is None:
        return None
    return K.cast(K.not_equal(K.sum(word_mask, axis=-1), 0), dtype=K.dtype(word_mask))
