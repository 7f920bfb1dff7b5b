# case: b29-08-clean
# modelled-on: maohangyu/TIT_open_source https://github.com/maohangyu/TIT_open_source/commit/be5e99c445920e5e8aa16a8dfc3834a78442d59a
# label: correct
# class: clean
# pattern: a research re-implementation of Decision Transformer baselines for BabyAI (offline RL): a minGPT-style CausalSelfAttention with separate key/query/value nn.Linear(n_embd, n_embd) split into heads, a registered tril buffer "bias" and a masked_bias of -1e4, a (B, T) 1/0 token mask turned into an additive (1.0 - mask) * -10000.0 bias; scores (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1))), torch.where(bias[:, :, :T, :T].bool(), att, masked_bias), plus the additive padding bias, softmax over dim=-1
# why: correct: torch.where keeps the scores where the lower-triangular buffer is 1 (current and past tokens) and puts -1e4 on future keys; the token mask is 1 on real tokens, so (1 - mask) * -10000 penalises only padded keys; both fills are large finite negatives that vanish after the softmax in float32 and avoid NaN rows on left-padded steps; the scale is 1/sqrt of one head's width
# looks-like: ATT002, ATT007
# source: https://github.com/maohangyu/TIT_open_source https://github.com/maohangyu/TIT_open_source/commit/be5e99c445920e5e8aa16a8dfc3834a78442d59a RL_Foundation_BabyAI_including_DT_GATO_and_TIT/network.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config["n_embd"] % config["n_head"] == 0
        self.key = nn.Linear(config["n_embd"], config["n_embd"])
        self.query = nn.Linear(config["n_embd"], config["n_embd"])
        self.value = nn.Linear(config["n_embd"], config["n_embd"])
        self.attn_drop = nn.Dropout(config["attn_pdrop"])
        self.resid_drop = nn.Dropout(config["resid_pdrop"])
        self.register_buffer(
            "bias", torch.tril(torch.ones(config["n_ctx"], config["n_ctx"])).view(1, 1, config["n_ctx"], config["n_ctx"])
        )
        self.register_buffer("masked_bias", torch.tensor(-1e4))
        self.proj = nn.Linear(config["n_embd"], config["n_embd"])
        self.n_head = config["n_head"]

    def forward(self, x, mask):
        B, T, C = x.size()
        k = self.key(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = self.query(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = self.value(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)

        mask = mask.view(B, -1)
        mask = mask[:, None, None, :]
        mask = (1.0 - mask) * -10000.0
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = torch.where(self.bias[:, :, :T, :T].bool(), att, self.masked_bias.to(att.dtype))
        att = att + mask
        att = F.softmax(att, dim=-1)
        self._attn_map = att.clone()
        att = self.attn_drop(att)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_drop(self.proj(y))


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln1 = nn.LayerNorm(config["n_embd"])
        self.ln2 = nn.LayerNorm(config["n_embd"])
        self.attn = CausalSelfAttention(config)
        self.mlp = nn.Sequential(
            nn.Linear(config["n_embd"], config["n_inner"]),
            nn.GELU(),
            nn.Linear(config["n_inner"], config["n_embd"]),
            nn.Dropout(config["resid_pdrop"]),
        )

    def forward(self, inputs_embeds, attention_mask):
        x = inputs_embeds + self.attn(self.ln1(inputs_embeds), attention_mask)
        x = x + self.mlp(self.ln2(x))
        return x


def padded_attention_mask(max_length, length):
    # 1 if the step can be attended to, 0 if it is left padding
    return torch.cat([torch.zeros(max_length - length), torch.ones(length)]).to(dtype=torch.long).reshape(1, -1)
