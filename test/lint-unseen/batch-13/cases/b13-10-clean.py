# case: b13-10-clean
# modelled-on: Junny20/jax-gpt https://github.com/Junny20/jax-gpt/commit/f0872baffbc859a1ba2b419551920fb296c9d5ef
# label: correct
# class: clean
# pattern: a functional JAX GPT-2 on unbatched (seq_len, model_dim) inputs: a single-head attention function takes (seq_len, n_dim) q, k, v, scales q @ k.T by n_dim ** -0.5 with n_dim = q.shape[1], fills -1e9 with jnp.where(mask, S, -1e9) where the bool tril keep mask is False, and softmaxes with jax.nn.softmax's default axis; the multi-head function reshapes Q, K, V to (n_heads, seq_len, head_dim) and maps the single-head function over the head axis with vmap(in_axes=(0, 0, 0, None)), sharing the mask
# why: correct: under vmap each call sees one head's (seq_len, head_dim) slice, so n_dim is the per-head width and the scale is 1/sqrt(head_dim); k.T of a 2-D (seq_len, head_dim) array is the right transpose; jax.nn.softmax defaults to axis=-1, the key axis of (seq_len, seq_len) scores; the tril keep mask is the where condition, so future keys get -1e9 and the diagonal is always kept; what a naive linter could misread: ATT004 (a scale taken from q.shape[1] in a function fed model-width tensors elsewhere), ATT005 (k.T), ATT001 (softmax without an axis), ATT002 (a keep mask as where's condition), ATT007 (-1e9 fill), ATT003 (the scale applied with ** -0.5)
# looks-like: ATT001, ATT002, ATT003, ATT004, ATT005, ATT007
# source: https://github.com/Junny20/jax-gpt https://github.com/Junny20/jax-gpt/commit/f0872baffbc859a1ba2b419551920fb296c9d5ef src/jaxgpt/model.py
import jax
import jax.numpy as jnp
from jax import vmap


def layernorm(x, gamma, beta, eps: float = 1e-5):
    norm = (x - jnp.mean(x, axis=-1, keepdims=True)) / jnp.sqrt(jnp.var(x, axis=-1, keepdims=True) + eps)
    return gamma * norm + beta


def causal_mask(seq_len: int):
    return jnp.tril(jnp.ones((seq_len, seq_len), dtype=jnp.bool_))


def single_head_attention(q, k, v, mask):
    # q, k, v: (seq_len, n_dim)
    n_dim = q.shape[1]
    S = q @ k.T * (n_dim**-0.5)
    S = jnp.where(mask, S, -1e9)
    S = jax.nn.softmax(S)
    return S @ v


def multi_head_attention(n_heads: int, head_dim: int, params: dict, x, mask):
    # x: (seq_len, model_dim) with model_dim == n_heads * head_dim
    seq_len, model_dim = x.shape
    mha = vmap(single_head_attention, in_axes=(0, 0, 0, None))
    Q = (x @ params["W_q"]).reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
    K = (x @ params["W_k"]).reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
    V = (x @ params["W_v"]).reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
    O = mha(Q, K, V, mask)  # (n_heads, seq_len, head_dim)
    return O.transpose(1, 0, 2).reshape(seq_len, model_dim) @ params["W_o"]


def block(n_heads: int, head_dim: int, p: dict, x, mask):
    x = x + multi_head_attention(n_heads, head_dim, p, layernorm(x, p["ln_1_gamma"], p["ln_1_beta"]), mask)
    h = jax.nn.gelu(layernorm(x, p["ln_2_gamma"], p["ln_2_beta"]) @ p["mlp_in"] + p["b_in"])
    return x + h @ p["mlp_out"] + p["b_out"]


def gpt2_forward(cfg, params: dict, token_ids):
    seq_len = token_ids.shape[0]
    x = params["token_embed"][token_ids] + params["position_embed"][:seq_len]
    mask = causal_mask(seq_len)
    for p in params["blocks"]:
        x = block(cfg.n_heads, cfg.head_dim, p, x, mask)
    x = layernorm(x, params["ln_f_gamma"], params["ln_f_beta"])
    return x @ params["unembed"]
