import torch
import torch.nn as nn

from grouped_attention import GroupedQueryAttention
from rotary import rope_tables
from norms import RMSNorm
from mlp import SwiGLU


class Layer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n1 = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.attn = GroupedQueryAttention(cfg)
        self.n2 = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.mlp = SwiGLU(cfg)

    def forward(self, h, cos, sin, layer_cache, offset):
        a, layer_cache = self.attn(self.n1(h), cos, sin, layer_cache, offset)
        h = h + a
        return h + self.mlp(self.n2(h)), layer_cache


class TinyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.layers = nn.ModuleList(Layer(cfg) for _ in range(cfg.n_layers))
        self.norm = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        cos, sin = rope_tables(cfg.head_dim, cfg.max_seq_len, cfg.rope_theta)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, ids, caches=None, offset: int = 0):
        h = self.tok(ids)
        fresh = [] if caches is not None else None
        for i, layer in enumerate(self.layers):
            h, c = layer(h, self.cos, self.sin, caches[i] if caches is not None else None, offset)
            if fresh is not None:
                fresh.append(c)
        return self.head(self.norm(h)[:, -1:, :]), fresh


@torch.no_grad()
def stream_reply(model: TinyLM, prompt_ids: torch.Tensor, max_new: int, end_id: int, temperature=0.7, top_k=40):
    caches = [(None, None)] * model.cfg.n_layers
    pos, step_in, out = 0, prompt_ids, []
    for _ in range(max_new):
        logits, caches = model(step_in, caches=caches, offset=pos)
        pos += step_in.shape[1]
        logits = logits[:, -1, :].float() / max(temperature, 1e-5)
        kth = torch.topk(logits, top_k)[0][..., -1, None]
        logits = logits.masked_fill(logits < kth, float("-inf"))
        nxt = torch.multinomial(torch.softmax(logits, dim=-1), 1)
        if nxt.item() == end_id:
            break
        out.append(nxt.item())
        step_in = nxt
    return out
