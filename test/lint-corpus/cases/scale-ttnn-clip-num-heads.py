# case: scale-ttnn-clip-num-heads
# modelled-on: tenstorrent/tt-metal https://github.com/tenstorrent/tt-metal/pull/56789
# label: buggy
# pattern: a CLIP tutorial's MultiHeadAttention on ttnn tensors multiplies the scores by 1/sqrt(num_heads) while its own comment says 1/sqrt(head_dim)
# why: for ViT-B/32 that is 1/sqrt(12) instead of 1/8; the prompts still rank correctly, which is why it went unnoticed, but the probabilities are wrong
import math

import ttnn


class MultiHeadAttention:
    def __init__(self, state_dict, num_heads: int, prefix: str):
        self.num_heads = num_heads
        self.q_proj_weight = state_dict[f"{prefix}.q_proj.weight"]
        self.k_proj_weight = state_dict[f"{prefix}.k_proj.weight"]
        self.v_proj_weight = state_dict[f"{prefix}.v_proj.weight"]
        self.out_proj_weight = state_dict[f"{prefix}.out_proj.weight"]

    def forward(self, hidden_states, attention_mask=None):
        batch_size, seq_length, hidden_size = hidden_states.shape
        head_size = hidden_size // self.num_heads

        q = ttnn.linear(hidden_states, self.q_proj_weight, transpose_b=True)
        k = ttnn.linear(hidden_states, self.k_proj_weight, transpose_b=True)
        v = ttnn.linear(hidden_states, self.v_proj_weight, transpose_b=True)

        q = ttnn.permute(ttnn.reshape(q, (batch_size, seq_length, self.num_heads, head_size)), (0, 2, 1, 3))
        k = ttnn.permute(ttnn.reshape(k, (batch_size, seq_length, self.num_heads, head_size)), (0, 2, 3, 1))  # (B, H, d, S)
        v = ttnn.permute(ttnn.reshape(v, (batch_size, seq_length, self.num_heads, head_size)), (0, 2, 1, 3))

        # scale attention scores by 1/sqrt(head_dim)
        attention_scores = ttnn.matmul(q, k)
        attention_scores = ttnn.mul(attention_scores, 1.0 / math.sqrt(self.num_heads))  # expect: ATT004
        if attention_mask is not None:
            attention_scores = ttnn.add(attention_scores, attention_mask)
        attention_probs = ttnn.softmax(attention_scores, dim=-1)

        context = ttnn.matmul(attention_probs, v)
        context = ttnn.reshape(ttnn.permute(context, (0, 2, 1, 3)), (batch_size, seq_length, hidden_size))
        return ttnn.linear(context, self.out_proj_weight, transpose_b=True)
