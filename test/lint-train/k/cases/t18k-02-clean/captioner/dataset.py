import numpy as np


def sentence_inputs(tokens, max_len, pad_token="[PAD]"):
    """Token list padded to max_len and its mask (1 = real token, 0 = padding)."""
    valid = min(len(tokens), max_len)
    tokens = tokens[:valid] + [pad_token] * (max_len - valid)
    mask = [1] * valid + [0] * (max_len - valid)
    return tokens, mask


def build_example(region_feats, sentence, max_len):
    # three image-region tokens are always real
    img_mask = [1] * 3
    sen_tokens, sen_mask = sentence_inputs(sentence, max_len)
    return dict(
        img_feature=np.asarray(region_feats, dtype=np.float32),
        sen_tokens=sen_tokens,
        img_sen_mask=np.array(img_mask + sen_mask).astype(np.float32),
        captions_mask=np.array(sen_mask + [0] * 3).astype(np.int64),
    )
