import torch
from flash_attn import flash_attn_varlen_qkvpacked_func
from flash_attn.bert_padding import pad_input, unpad_input


def packed_attention(qkv, attention_mask):
    # qkv: (B, S, 3, H, D); attention_mask: (B, S) bool, True = keep (flash-attn's convention)
    B, S = attention_mask.shape
    qkv_unpad, indices, cu_seqlens, max_s, *_ = unpad_input(qkv, attention_mask)
    out = flash_attn_varlen_qkvpacked_func(qkv_unpad, cu_seqlens, max_s, causal=False)
    return pad_input(out, indices, B, S)


def run(tok, texts, qkv):
    enc = tok(texts, padding=True, return_tensors="pt")
    return packed_attention(qkv, enc["attention_mask"].bool())
