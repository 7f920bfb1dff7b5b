# case: b27-15-clean
# modelled-on: hakanbogan/gpt2-from-scratch-lora https://github.com/hakanbogan/gpt2-from-scratch-lora/commit/893af8c83a917fccd6756bdb2593d44ef423019e
# label: correct
# class: clean
# pattern: a course GPT-2 (paraphrase detection and sonnet generation) extended with LoRA adapters: q/k/v Linears plus optional low-rank a/b pairs added with lora_scaling = lora_alpha / lora_r, heads split with einops rearrange, an attention(key, query, value, attention_mask) method that divides query @ key.transpose(-2, -1) by attention_head_size ** 0.5, fills ~tril(ones(bool)) with -10000.0, then adds an additive padding mask built in a utils module as (1.0 - mask[:, None, None, :]) * -10000.0 and takes softmax(dim=-1); the model module builds that mask from the tokenizer's attention_mask and passes it to every layer
# why: correct: the causal mask is a keep mask (True on and below the diagonal) and ~causal_mask selects the future; the padding mask is additive, 0 on real tokens and -10000 on padding, so adding it is right (no polarity flip); -10000 fits in float16 and the utils cast the mask to the model's dtype; lora_alpha / lora_r scales the low-rank update of the projections, not the scores; the scale is the per-head width; attention() takes key before query and forward() passes them in that order
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/hakanbogan/gpt2-from-scratch-lora https://github.com/hakanbogan/gpt2-from-scratch-lora/commit/893af8c83a917fccd6756bdb2593d44ef423019e src/modules/attention.py
import torch
import torch.nn as nn
from einops import rearrange


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = int(config.hidden_size / config.num_attention_heads)
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(config.hidden_size, self.all_head_size)
        self.key = nn.Linear(config.hidden_size, self.all_head_size)
        self.value = nn.Linear(config.hidden_size, self.all_head_size)
        self.dropout = nn.Dropout(config.attention_probs_dropout_prob)

        self.lora_r = getattr(config, "lora_r", 0)
        self.lora_alpha = getattr(config, "lora_alpha", 1.0)
        self.lora_scaling = self.lora_alpha / self.lora_r if self.lora_r > 0 else 1.0
        self.q_lora_a = self.q_lora_b = self.k_lora_a = self.k_lora_b = self.v_lora_a = self.v_lora_b = None
        if self.lora_r > 0:
            self.q_lora_a = nn.Linear(config.hidden_size, self.lora_r, bias=False)
            self.q_lora_b = nn.Linear(self.lora_r, self.all_head_size, bias=False)
            self.k_lora_a = nn.Linear(config.hidden_size, self.lora_r, bias=False)
            self.k_lora_b = nn.Linear(self.lora_r, self.all_head_size, bias=False)
            self.v_lora_a = nn.Linear(config.hidden_size, self.lora_r, bias=False)
            self.v_lora_b = nn.Linear(self.lora_r, self.all_head_size, bias=False)
            for module in [self.q_lora_b, self.k_lora_b, self.v_lora_b]:
                nn.init.zeros_(module.weight)

    def transform(self, x, linear_layer, lora_a=None, lora_b=None):
        proj = linear_layer(x)
        if lora_a is not None and lora_b is not None and self.lora_r > 0:
            proj = proj + self.lora_scaling * lora_b(lora_a(x))
        proj = rearrange(proj, 'b t (h d) -> b t h d', h=self.num_attention_heads)
        return rearrange(proj, 'b t h d -> b h t d')  # [bs, heads, seq_len, head_size]

    def attention(self, key, query, value, attention_mask):
        # key, query, value: [batch_size, num_heads, seq_len, head_size]; attention_mask: [batch_size, 1, 1, seq_len]
        scores = torch.matmul(query, key.transpose(-2, -1))
        scores = scores / (self.attention_head_size ** 0.5)

        seq_len = scores.size(-1)
        causal_mask = torch.tril(torch.ones((seq_len, seq_len), device=scores.device, dtype=torch.bool))
        causal_mask = causal_mask.view(1, 1, seq_len, seq_len)
        scores = scores.masked_fill(~causal_mask, float('-10000.0'))

        scores = scores + attention_mask
        attention_probs = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.matmul(attention_probs, value)
        return rearrange(context, 'b h t d -> b t (h d)')

    def forward(self, hidden_states, attention_mask):
        key_layer = self.transform(hidden_states, self.key, self.k_lora_a, self.k_lora_b)
        value_layer = self.transform(hidden_states, self.value, self.v_lora_a, self.v_lora_b)
        query_layer = self.transform(hidden_states, self.query, self.q_lora_a, self.q_lora_b)
        return self.attention(key_layer, query_layer, value_layer, attention_mask)
