from functools import partial

import torch

# Every mask_mod returns True where the query may attend to the key (FlexAttention's convention, and what
# create_mask hands to SDPA as a boolean attn_mask).


def prefix_lm(b, h, q_idx, kv_idx, prefix_length):
    causal = q_idx >= kv_idx
    in_prefix = kv_idx < prefix_length
    return causal | in_prefix


def causal_window(b, h, q_idx, kv_idx, window):
    causal = q_idx >= kv_idx
    near = (q_idx - kv_idx) <= window
    return causal & near


def document_causal(doc_ids: torch.Tensor):
    def mod(b, h, q_idx, kv_idx):
        same_doc = doc_ids[q_idx] == doc_ids[kv_idx]
        return (q_idx >= kv_idx) & same_doc

    return mod


def pick(name: str, seq_len: int):
    if name == "prefix":
        return partial(prefix_lm, prefix_length=seq_len // 2)
    if name == "window":
        return partial(causal_window, window=256)
    docs = torch.zeros(seq_len, dtype=torch.int)
    docs[seq_len // 4 :] = 1
    docs[seq_len // 2 :] = 2
    return document_causal(docs)
