import numpy as np
import torch


def assign(left, right):
    if left.shape != right.shape:
        raise ValueError(f"shape mismatch {left.shape} vs {right.shape}")
    return torch.nn.Parameter(torch.tensor(right))


def load_attention_weights(block, params):
    """Copies one GPT-2 block's c_attn / c_proj weights into the block's attention."""
    q_w, k_w, v_w = np.split(params["attn"]["c_attn"]["w"], 3, axis=-1)
    block.attn.W_Query.weight = assign(block.attn.W_Query.weight, q_w.T)
    block.attn.W_Key.weight = assign(block.attn.W_Key.weight, k_w.T)
    block.attn.W_Value.weight = assign(block.attn.W_Value.weight, v_w.T)
    q_b, k_b, v_b = np.split(params["attn"]["c_attn"]["b"], 3, axis=-1)
    block.attn.W_Query.bias = assign(block.attn.W_Query.bias, q_b)
    block.attn.W_Key.bias = assign(block.attn.W_Key.bias, k_b)
    block.attn.W_Value.bias = assign(block.attn.W_Value.bias, v_b)
    block.attn.out_project.weight = assign(block.attn.out_project.weight, params["attn"]["c_proj"]["w"].T)
    block.attn.out_project.bias = assign(block.attn.out_project.bias, params["attn"]["c_proj"]["b"])
