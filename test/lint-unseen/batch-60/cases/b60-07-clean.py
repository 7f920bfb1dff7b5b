# case: b60-07-clean
# modelled-on: produit-scalaire/Decision-Transformer-LOB-Trading https://github.com/produit-scalaire/Decision-Transformer-LOB-Trading/commit/34e5dfe5ca2c68630180aaff2283ad159ee356dc
# label: correct
# class: clean
# pattern: a Decision Transformer that trades on limit-order-book features: return-to-go, state and action embeddings (each with its own LayerNorm, plus a timestep embedding) are interleaved per step into a sequence of 3K tokens; the blocks use a fused qkv projection and F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=True); the action is read from the state tokens (positions 1::3); training runs on fixed windows of K steps under bfloat16 autocast, and acting feeds the last K steps again each time (no cache)
# why: correct: every call has as many queries as keys (the whole window), so is_causal's top-left aligned triangle is the right causal mask; the state token of step t sees the return-to-go and state of step t and everything earlier, but not the action of step t, which comes after it; SDPA scales by the per-head width itself; the windows are never padded, so no padding mask is needed
# looks-like: ATT003, ATT008
# source: https://github.com/produit-scalaire/Decision-Transformer-LOB-Trading https://github.com/produit-scalaire/Decision-Transformer-LOB-Trading/commit/34e5dfe5ca2c68630180aaff2283ad159ee356dc src/models/decision_transformer.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model, self.n_heads, self.p = d_model, n_heads, dropout
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)   # one matmul for q, k and v
        self.proj = nn.Linear(d_model, d_model, bias=False)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = self.qkv(x).split(self.d_model, dim=2)
        q, k, v = (z.view(b, t, self.n_heads, c // self.n_heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None,
                                           dropout_p=self.p if self.training else 0.0, is_causal=True)
        return self.drop(self.proj(y.transpose(1, 2).contiguous().view(b, t, c)))


class Block(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_heads, dropout)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model, bias=False), nn.GELU(approximate="tanh"),
                                 nn.Linear(4 * d_model, d_model, bias=False), nn.Dropout(dropout))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class OrderBookDT(nn.Module):
    def __init__(self, state_dim, n_actions, d_model=256, n_heads=8, n_layers=6, max_timestep=4096, dropout=0.1):
        super().__init__()
        self.d_model = d_model
        self.when = nn.Embedding(max_timestep, d_model)
        # one LayerNorm per modality keeps the wide state projection from drowning the return-to-go
        self.rtg_in = nn.Sequential(nn.Linear(1, d_model, bias=False), nn.LayerNorm(d_model))
        self.state_in = nn.Sequential(nn.Linear(state_dim, d_model, bias=False), nn.LayerNorm(d_model))
        self.action_in = nn.Sequential(nn.Embedding(n_actions, d_model), nn.LayerNorm(d_model))
        self.blocks = nn.ModuleList(Block(d_model, n_heads, dropout) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.to_action = nn.Linear(d_model, n_actions, bias=False)

    def forward(self, states, actions, rtg, timesteps):
        b, k, _ = states.shape
        w = self.when(timesteps)
        steps = torch.stack([self.rtg_in(rtg) + w, self.state_in(states) + w, self.action_in(actions) + w], dim=2)
        x = steps.view(b, 3 * k, self.d_model)    # r_1, s_1, a_1, r_2, s_2, a_2, ...
        for block in self.blocks:
            x = block(x)
        return self.to_action(self.ln_f(x)[:, 1::3])


def train_step(model, batch, optim, device):
    states, actions, rtg, timesteps = (t.to(device) for t in batch)
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        logits = model(states, actions, rtg, timesteps)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), actions.reshape(-1))
    optim.zero_grad(set_to_none=True)
    loss.backward()
    optim.step()
    return loss.item()


@torch.no_grad()
def act(model, states, actions, rtg, timesteps, k):
    # the action slot of the current step holds a placeholder; the state token before it cannot see it
    logits = model(states[:, -k:], actions[:, -k:], rtg[:, -k:], timesteps[:, -k:])
    return logits[:, -1].argmax(dim=-1)
