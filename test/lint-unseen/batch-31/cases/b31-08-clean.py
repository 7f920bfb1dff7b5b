# case: b31-08-clean
# modelled-on: clankur/einygpt https://github.com/clankur/einygpt/commit/09ab3607dccae7154e8ebcb94be5549ec3d2576c
# label: correct
# class: clean
# pattern: a small grouped-query-attention GPT written with einops.einsum over raw nn.Parameter weight stacks (one slice per layer) for TinyStories: q is (B, g, kv_head, T, d), k and v are (B, kv_head, K, d); with a key/value cache the new keys are concatenated behind the cached ones (and the cache truncated to the last block_size), the logits are einsum('b g kv_head q d, b kv_head k d -> b g kv_head q k') * head_dim ** -0.5, masked with masked_fill(self.tril[:, :, :T, :T] == 0, -inf) and softmaxed over the keys; generate() runs the whole prompt once with empty caches and then feeds one new token per step
# why: correct: the einsum contracts the per-head d of queries and keys (no transpose needed) and the scale is 1/sqrt(head_dim); the prompt pass has no cached keys, so K == T and the T x T lower-triangular slice is the causal mask; every later step has T == 1, where the 1 x 1 slice keeps its single entry and broadcasts over all K cached keys, which a single newest query may all see; every row keeps its diagonal, so -inf leaves no row empty; softmax(dim=-1) is the key axis
# looks-like: ATT002, ATT005, ATT007, ATT008
# source: https://github.com/clankur/einygpt https://github.com/clankur/einygpt/commit/09ab3607dccae7154e8ebcb94be5549ec3d2576c model.py
from dataclasses import dataclass
from typing import List, Optional, Tuple

import torch
import torch.nn as nn
from torch.nn import functional as F
from einops import rearrange, einsum

KVCacheType = Tuple[torch.Tensor, torch.Tensor]
BlocksKVCacheType = List[Optional[KVCacheType]]


@dataclass
class GptConfig:
    block_size: int = 256
    n_embd: int = 64
    n_head: int = 8
    n_groups: int = 4
    n_layer: int = 12
    dropout: float = 0.2
    vocab_size: int = 2048
    pad_token_id: int = 0
    top_k: int = 10
    device: str = "cpu"


class GptLanguageModel(nn.Module):

    def __init__(self, hyperparameters: GptConfig) -> None:
        super().__init__()
        for k, v in hyperparameters.__dict__.items():
            setattr(self, k, v)

        self.token_embedding_table = nn.Parameter(torch.randn((self.vocab_size, self.n_embd)))
        self.position_embedding_table = nn.Parameter(torch.randn((self.block_size, self.n_embd)))

        self.fc_in = nn.Parameter(torch.randn((self.n_layer, self.n_embd, 4 * self.n_embd)) / self.n_embd ** 0.5)
        self.fc_out = nn.Parameter(torch.randn((self.n_layer, 4 * self.n_embd, self.n_embd)) / (4 * self.n_embd) ** 0.5)

        self.head_dim = self.n_embd // self.n_head
        self.num_kv_heads = self.n_head // self.n_groups  # h = g * num_kv_heads
        self.q_proj = nn.Parameter(torch.randn(
            (self.n_layer, self.n_embd, self.n_groups, self.num_kv_heads, self.head_dim)) / self.n_embd ** 0.5)
        self.kv_proj = nn.Parameter(torch.randn(
            (self.n_layer, 2, self.n_embd, self.num_kv_heads, self.head_dim)) / self.n_embd ** 0.5)
        self.out_proj = nn.Parameter(torch.randn(
            (self.n_layer, self.n_embd, self.n_embd)) / (self.head_dim * self.n_head) ** 0.5)

        self.register_buffer('tril', torch.tril(torch.ones(1, 1, self.block_size, self.block_size)))

        self.lm_head = nn.Parameter(torch.randn((self.n_embd, self.vocab_size)) / self.n_embd ** 0.5)
        self.scale = nn.Parameter(torch.ones(self.n_layer, 2, self.n_embd))
        self.out_scale = nn.Parameter(torch.ones(self.n_embd))

    def forward(self, idx: torch.Tensor, targets: Optional[torch.Tensor] = None,
                blocks_kvcache: Optional[BlocksKVCacheType] = None):
        tok_emb = self.token_embedding_table[idx]
        B, T, C = tok_emb.shape

        history_length = 0 if not blocks_kvcache or not blocks_kvcache[0] else blocks_kvcache[0][0].shape[2]
        pos_emb = self.position_embedding_table[torch.arange(T, device=idx.device) + history_length]

        x = tok_emb + pos_emb  # [B, T, C]
        layers = zip(self.kv_proj, self.q_proj, self.out_proj, self.fc_in, self.fc_out, self.scale)
        for layer, (w_kv, w_q, w_out_proj, fc1, fc2, layer_scale) in enumerate(layers):
            x = F.layer_norm(x, (C,), weight=layer_scale[0])

            q = einsum(x, w_q, 'b t c, c g kv_head d -> b g kv_head t d')  # [B, g, num_kv_heads, T, d]
            k, v = einsum(x, w_kv, 'b t c, s c kv_head d -> s b kv_head t d')  # 2 x [B, num_kv_heads, T, d]

            if blocks_kvcache:
                kv_cache = blocks_kvcache[layer]
                if kv_cache:
                    prev_k, prev_v = kv_cache
                    k = torch.cat([prev_k, k], dim=2)  # [B, h, K + T, d]
                    v = torch.cat([prev_v, v], dim=2)
                # keep the last block_size positions
                blocks_kvcache[layer] = [cache[:, :, -self.block_size:, :] for cache in (k, v)]

            att_wei = einsum(q, k, 'b g kv_head q d, b kv_head k d -> b g kv_head q k') * (self.head_dim ** -0.5)

            # causal masking
            att_wei = att_wei.masked_fill(self.tril[:, :, :T, :T] == 0, float('-inf'))

            att_wei = F.softmax(att_wei, dim=-1)
            att_wei = F.dropout(att_wei, p=self.dropout, training=self.training)

            out = einsum(att_wei, v, 'b g kv_head q k, b kv_head k d -> b g kv_head q d')
            out = rearrange(out, 'b g kv_head Q d -> b Q (g kv_head d)')
            out = einsum(out, w_out_proj, 'b Q C1, C1 C2 -> b Q C2')
            x = x + F.dropout(out, p=self.dropout, training=self.training)
            x = F.layer_norm(x, [C], weight=layer_scale[1])

            mlp_hidden = F.relu(einsum(x, fc1, 'b t c, c upscale_c -> b t upscale_c'))
            mlp_out = einsum(mlp_hidden, fc2, 'b t c, c downscale_c -> b t downscale_c')
            x = x + F.dropout(mlp_out, p=self.dropout, training=self.training)

        x = F.layer_norm(x, [C], weight=self.out_scale)
        logits = einsum(x, self.lm_head, 'b t c, c v -> b t v')

        loss = None
        if targets is not None:
            flat_logits = rearrange(logits, 'b t c -> (b t) c')
            flat_targets = rearrange(targets, 'b t -> (b t)')
            loss = F.cross_entropy(flat_logits, flat_targets, reduction='none')
            padding_mask = flat_targets == self.pad_token_id
            loss = (loss * ~padding_mask).sum() / (~padding_mask).sum()
        return logits, loss, blocks_kvcache

    def generate(self, idx: torch.Tensor, max_new_tokens: int) -> torch.Tensor:
        blocks_kvcache = [None] * self.n_layer
        curr_idx = idx
        for _ in range(max_new_tokens):
            logits, _, blocks_kvcache = self.forward(curr_idx, blocks_kvcache=blocks_kvcache)
            probs = F.softmax(logits[:, -1, :], dim=-1)
            top_probs, top_indices = torch.topk(probs, self.top_k)
            sample = torch.multinomial(top_probs, 1)
            next_idx = top_indices[0, sample]
            curr_idx = next_idx
            idx = torch.cat([idx, next_idx], dim=1)
        return idx
