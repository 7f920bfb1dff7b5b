# case: b59-01-causal
# modelled-on: antonalth/cs2-transformer-agent https://github.com/antonalth/cs2-transformer-agent/commit/28fb7641a59d7f4208883fdef96e64f85b3276d5
# label: buggy
# class: real-bug
# pattern: grouped-query self-attention of a game-playing transformer whose tokens come in frames of 7 (a folder: `kv_cache.py` appends each call's rotated keys and values to a per-layer cache with an absolute position counter); in eval mode every call goes through the cache, so after the prompt each call's queries are only the new tokens while the keys are the whole cache; the masking is chosen per call: a frame-block mask (a token sees its whole frame and earlier frames) built from absolute frame ids in inference or on request in training, otherwise SDPA's built-in causal flag
# why: buggy: by default (`inference_use_standard_causal` true) decoding takes the last branch and hands SDPA `is_causal=True` with L_new queries against L_total cached keys; PyTorch aligns that mask to the top-left, so the new tokens see only the first cached keys instead of their whole past, contrary to the branch's own comment ("standard rectangular-causal attention"; the repository's earlier commit built the offset mask by hand for the cached path); and both frame-block masks are written as "True = masked (keys from future frames)" but given to SDPA's boolean `attn_mask`, where True means attend, so each token attends only to later frames
# source: https://github.com/antonalth/cs2-transformer-agent https://github.com/antonalth/cs2-transformer-agent/commit/28fb7641a59d7f4208883fdef96e64f85b3276d5 transformers/model/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from kv_cache import LayerKV, extend


class RoundAttention(nn.Module):
    def __init__(self, cfg, rotary):
        super().__init__()
        self.cfg = cfg
        self.rotary = rotary
        width, n_q, n_kv = cfg.d_model, cfg.n_q_heads, cfg.n_kv_heads
        assert width % n_q == 0 and n_q % n_kv == 0
        self.head_dim = width // n_q
        self.group = n_q // n_kv
        self.p_drop = float(getattr(cfg, "attn_dropout", 0.0))
        self.wq = nn.Linear(width, width, bias=False)
        self.wk = nn.Linear(width, n_kv * self.head_dim, bias=False)
        self.wv = nn.Linear(width, n_kv * self.head_dim, bias=False)
        self.wo = nn.Linear(width, width, bias=False)

    def forward(self, x, frame_pos, slot_pos, cache=None):
        B, n_new, width = x.shape
        cfg = self.cfg
        decoding = not self.training
        if n_new == 0:
            return x[:, :0], (cache if decoding else None)

        if decoding:  # absolute positions from the cache, not from the caller
            start = cache.pos_end if cache is not None else 0
            frame_pos = torch.arange(start, start + n_new, device=x.device)

        q = self.wq(x).reshape(B, n_new, cfg.n_q_heads, self.head_dim)
        k = self.wk(x).reshape(B, n_new, cfg.n_kv_heads, self.head_dim)
        v = self.wv(x).reshape(B, n_new, cfg.n_kv_heads, self.head_dim)
        q, k = self.rotary(q, k, frame_pos, slot_pos)

        updated = extend(cache, k, v, getattr(cfg, "max_cache_len_tokens", None)) if decoding else None
        keys, values = (updated.key, updated.value) if decoding else (k, v)
        if self.group > 1:
            keys = keys.repeat_interleave(self.group, dim=2)
            values = values.repeat_interleave(self.group, dim=2)
        n_total = keys.shape[1]

        mask, causal = None, False
        per_frame = cfg.tokens_per_frame
        if decoding and not getattr(cfg, "inference_use_standard_causal", True):
            first_abs = updated.pos_end - n_total  # absolute index of keys[:, 0]
            key_frame = (first_abs + torch.arange(n_total, device=x.device)) // per_frame
            query_frame = key_frame[n_total - n_new:]
            # Bool SDPA mask: True = masked (keys from future frames)
            mask = key_frame.view(1, n_total) > query_frame.view(n_new, 1)
        elif not decoding and getattr(cfg, "training_use_frame_block_causal", False):
            frame = torch.arange(n_new, device=x.device) // per_frame  # square while training
            mask = frame[None, :] > frame[:, None]
        else:
            # Standard rectangular-causal attention (PyTorch handles n_new != n_total)
            causal = True

        out = F.scaled_dot_product_attention(
            q.permute(0, 2, 1, 3),
            keys.permute(0, 2, 1, 3),
            values.permute(0, 2, 1, 3),
            attn_mask=mask,  # expect: ATT002
            is_causal=causal,  # expect: ATT008
            dropout_p=self.p_drop if self.training else 0.0,
        )
        out = out.permute(0, 2, 1, 3).contiguous().reshape(B, n_new, width)
        return self.wo(out), (updated if decoding else None)
