# case: b47-06-clean
# modelled-on: 3ld0n/attention-geometry https://github.com/3ld0n/attention-geometry/commit/ad512bee213c4acd6e2a9e34b59eef36a4536f1c
# label: correct
# class: clean
# pattern: a NumPy/SciPy numerical experiment on random attention stacks: token states X of shape (n_tokens, d_model) with Fourier-feature embeddings; per layer fresh Gaussian projections W_Q, W_K (d_model x d_k) and W_V scaled by sigma / sqrt(d_model); scores Q @ K.T / sqrt(d_k), scipy.special.softmax(scores, axis=1), residual plus a row-wise layer norm; the two-point function of the output states is then averaged over realisations and fitted
# why: correct: the scores are a 2-D (query, key) matrix with no batch axis, so axis=1 is the key axis and each query's weights sum to 1; the scale is 1/sqrt(d_k) with d_k the width the product sums over (the sigma / sqrt(d_model) factors are the projections' initialisation, the effective temperature the experiment sweeps); K.T on a 2-D array swaps tokens and features as intended; the stack has no causal mask by design (bidirectional attention)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/3ld0n/attention-geometry https://github.com/3ld0n/attention-geometry/commit/ad512bee213c4acd6e2a9e34b59eef36a4536f1c research/physics/experiments/exp-006_random_attention_baseline/numerical_test_phase_transition.py
import numpy as np
from scipy.special import softmax

rng = np.random.default_rng(7)

N_TOK, D_MODEL, D_K, D_V = 128, 128, 64, 128
LAYERS, REALISATIONS = 8, 300
MAX_LAG = N_TOK // 2


def row_layer_norm(x, eps=1e-5):
    mu = x.mean(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(x.var(axis=1, keepdims=True) + eps)


def attention_stack(x, sigma, depth):
    for _ in range(depth):
        w_q = rng.standard_normal((D_MODEL, D_K)) * sigma / np.sqrt(D_MODEL)
        w_k = rng.standard_normal((D_MODEL, D_K)) * sigma / np.sqrt(D_MODEL)
        w_v = rng.standard_normal((D_MODEL, D_V)) * sigma / np.sqrt(D_MODEL)
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        logits = q @ k.T / np.sqrt(D_K)
        alpha = softmax(logits, axis=1)
        x = row_layer_norm(x + alpha @ v)
    return x


def fourier_tokens():
    freqs = rng.standard_normal(D_MODEL // 2) * 0.3
    pos = np.arange(N_TOK, dtype=float)
    x = np.empty((N_TOK, D_MODEL))
    x[:, 0::2] = np.cos(np.outer(pos, freqs))
    x[:, 1::2] = np.sin(np.outer(pos, freqs))
    return x / np.linalg.norm(x, axis=1, keepdims=True) * np.sqrt(D_MODEL)


def two_point(x):
    kern = x @ x.T / D_MODEL
    return np.array([np.mean(np.diagonal(kern, offset=lag)) for lag in range(MAX_LAG)])


def sweep(sigmas):
    x0 = fourier_tokens()
    rows = []
    for sigma in sigmas:
        g = np.stack([two_point(attention_stack(x0.copy(), sigma, LAYERS)) for _ in range(REALISATIONS)])
        mean_g, var_g = g.mean(axis=0), g.var(axis=0)
        ratio = mean_g[32] / mean_g[4] if abs(mean_g[4]) > 1e-10 else np.nan
        rows.append((sigma, ratio, float(var_g[1:].mean())))
    return rows


if __name__ == "__main__":
    for sigma, ratio, spread in sweep([0.01, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0]):
        print(f"sigma={sigma:5.2f}  G(32)/G(4)={ratio:8.4f}  mean var={spread:.3e}")
