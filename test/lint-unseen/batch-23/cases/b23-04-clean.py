# case: b23-04-clean
# modelled-on: yashbonde/graph-transformer https://github.com/yashbonde/graph-transformer/commit/c28e21c10ccf9272b2a54f0cabb5e376ced8a07c
# label: correct
# class: clean
# pattern: a GPT-2-style attention block used as a graph convolution: node features are gathered along the two ends of each edge, queries get the edge attributes added, keys and values come from one fused projection split with torch.split; split_heads(x, k=True) permutes the keys straight to (B, H, E, N) so the product is torch.matmul(q, k) with no transpose at the call site; the scores are divided in place by v.size(-1) ** 0.5, then softmax(dim=-1), and the edge messages are scatter-averaged back to the nodes
# why: correct: the keys are already laid out as (B, H, head_dim, N), so q @ k is the (B, H, N, N) query-key product; v has the same per-head width as k (both are n_embd // n_head slices of one fused projection), so v.size(-1) ** 0.5 is sqrt(d_k); the softmax is over the last (key) axis
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/yashbonde/graph-transformer https://github.com/yashbonde/graph-transformer/commit/c28e21c10ccf9272b2a54f0cabb5e376ced8a07c graph_trans.py
import torch
import torch.nn.functional as F
from torch import nn
from torch_scatter import scatter_mean


class EdgeAttentionBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.ln_x = nn.LayerNorm(cfg.n_embd, eps=cfg.layer_norm_epsilon)
        self.ln_e = nn.LayerNorm(cfg.n_embd, eps=cfg.layer_norm_epsilon)
        self.ln_out = nn.LayerNorm(cfg.n_embd, eps=cfg.layer_norm_epsilon)
        self.q_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.kv_proj = nn.Linear(cfg.n_embd, 2 * cfg.n_embd)
        self.e_proj = nn.Linear(cfg.n_embd, cfg.n_embd, bias=cfg.edge_bias)
        self.mlp = nn.Sequential(nn.Linear(cfg.n_embd, 4 * cfg.n_embd), nn.GELU(), nn.Linear(4 * cfg.n_embd, cfg.n_embd))

    def split_heads(self, x, k=False):
        shape = x.size()[:-1] + (self.cfg.n_head, x.size(-1) // self.cfg.n_head)
        x = x.view(shape)
        if k:
            return x.permute(0, 2, 3, 1)  # (B, H, head_dim, N)
        return x.permute(0, 2, 1, 3)  # (B, H, N, head_dim)

    def merge_heads(self, x):
        x = x.permute(0, 2, 1, 3).contiguous()
        return x.view(*x.size()[:-2], x.size(-2) * x.size(-1))

    def attend(self, q, k, v):
        w = torch.matmul(q, k)
        w /= float(v.size(-1)) ** 0.5
        w = F.softmax(w, dim=-1)
        return torch.matmul(w, v)

    @staticmethod
    def gather(x, idx):
        return torch.cat([x[i, idx[i]] for i in range(idx.size(0))], dim=0).reshape(idx.size(0), -1, x.size(-1))

    def forward(self, x, edge_index, edge_attr):
        h = self.ln_x(x)
        src = self.gather(h, edge_index[:, 0])
        dst = self.gather(h, edge_index[:, 1])
        q = self.q_proj(dst) + self.e_proj(self.ln_e(edge_attr))
        k_part, v_part = torch.split(self.kv_proj(src), self.cfg.n_embd, dim=-1)
        q, k, v = self.split_heads(q), self.split_heads(k_part, k=True), self.split_heads(v_part)
        a = self.merge_heads(self.attend(q, k, v))
        hidden = self.ln_out(v_part + a)
        hidden = hidden + self.mlp(hidden)
        out = scatter_mean(hidden, edge_index[:, 1], dim=1)
        if x.size(1) > out.size(1):
            pad = torch.zeros(out.size(0), x.size(1) - out.size(1), x.size(2), device=out.device)
            out = torch.cat([out, pad], dim=1)
        return torch.where(out != 0.0, out, x)
