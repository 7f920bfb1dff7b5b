"""Patched decoder-layer forward: routes the host model's attention through the quantised-cache layer."""
import torch

from .prefill import prefill


def make_forward(layer, rotary):
    def forward(hidden_states, attention_mask=None, position_embeddings=None, **kwargs):
        # attention_mask from the host model is its 4-D additive float mask, (1, 1, T, T), or None
        bsz, t, _ = hidden_states.shape
        assert bsz == 1, "the research layer runs one sequence at a time"
        x = hidden_states[0]
        q = (x @ layer.w_q.T).view(t, layer.n_heads, layer.head_dim).transpose(0, 1)
        k = (x @ layer.w_k.T).view(t, layer.n_kv_heads, layer.head_dim).transpose(0, 1)
        v = (x @ layer.w_v.T).view(t, layer.n_kv_heads, layer.head_dim).transpose(0, 1)
        cos, sin = position_embeddings
        q, k = rotary(q, k, cos, sin)
        k_hat, v_hat = layer.quantize_and_store(k, v)
        out = prefill(q, k_hat, v_hat, attention_mask, layer.n_heads // layer.n_kv_heads, layer.w_o)
        return (out.unsqueeze(0).to(hidden_states.dtype),)

    return forward


@torch.no_grad()
def patch_model(model, make_layer):
    for idx, block in enumerate(model.model.layers):
        research = make_layer(idx, block.self_attn)
        block.self_attn.forward = make_forward(research, model.model.rotary)
    return model
