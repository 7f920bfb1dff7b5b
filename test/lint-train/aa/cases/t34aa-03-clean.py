# case: t34aa-03-clean
# modelled-on: shete2412/ViT-from-scratch-using-cupy-and-without-Pytorch-Cuda https://github.com/shete2412/ViT-from-scratch-using-cupy-and-without-Pytorch-Cuda/commit/dee5d5a62196feb74aa6f0b2df991ac7456a6d2c
# label: correct
# class: clean
# pattern: a Vision Transformer written in CuPy with no autograd: multi-head self-attention with (D, D) weight matrices, heads split by reshape(B, T, H, d).transpose(0, 2, 1, 3), keys turned by the full permutation `K.transpose(0, 1, 3, 2)`, scores divided by `cp.sqrt(cp.float32(d))`, a static max-shifted softmax over axis -1; a hand-written backward pass that multiplies the transposed weights by the head gradient (`attn.transpose(0, 1, 3, 2) @ dhead`), the transposed score gradient by Q, and divides dQ and dK by the same scale
# why: correct: on (B, H, T, d) keys the permutation (0, 1, 3, 2) swaps exactly the last two axes (K^T per head); the scale is 1/sqrt(head_dim) with head_dim = D // H; the softmax normalises the key axis; in backward, dV = A^T dO and dK = dS^T Q / sqrt(d) are the gradients of O = A V and S = Q K^T / sqrt(d), and dS = A * (dA - sum(dA * A, -1)) is the softmax's Jacobian-vector product over the key axis; nothing in backward feeds a forward product
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/shete2412/ViT-from-scratch-using-cupy-and-without-Pytorch-Cuda https://github.com/shete2412/ViT-from-scratch-using-cupy-and-without-Pytorch-Cuda/commit/dee5d5a62196feb74aa6f0b2df991ac7456a6d2c model/attention.py
import cupy as cp


def xavier_normal(fan_in, fan_out):
    std = cp.sqrt(2.0 / (fan_in + fan_out))
    return (cp.random.standard_normal((fan_in, fan_out)) * std).astype(cp.float32)


class MultiHeadSelfAttention:
    def __init__(self, embed_dim, num_heads):
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads

        self.Wq = xavier_normal(embed_dim, embed_dim)
        self.Wk = xavier_normal(embed_dim, embed_dim)
        self.Wv = xavier_normal(embed_dim, embed_dim)
        self.Wo = xavier_normal(embed_dim, embed_dim)
        self.dWq = self.dWk = self.dWv = self.dWo = None
        self.saved = None

    @staticmethod
    def softmax(x):
        shifted = x - cp.max(x, axis=-1, keepdims=True)
        e = cp.exp(shifted)
        return e / cp.sum(e, axis=-1, keepdims=True)

    def forward(self, x):
        B, T, D = x.shape
        H, d = self.num_heads, self.head_dim

        q = x @ self.Wq
        k = x @ self.Wk
        v = x @ self.Wv

        # (B, T, D) -> (B, H, T, d)
        q = q.reshape(B, T, H, d).transpose(0, 2, 1, 3)
        k = k.reshape(B, T, H, d).transpose(0, 2, 1, 3)
        v = v.reshape(B, T, H, d).transpose(0, 2, 1, 3)

        # (B, H, T, d) @ (B, H, d, T) -> (B, H, T, T)
        scores = q @ k.transpose(0, 1, 3, 2)
        scores = scores / cp.sqrt(cp.float32(d))
        attn = self.softmax(scores)

        heads = attn @ v  # (B, H, T, d)
        merged = heads.transpose(0, 2, 1, 3).reshape(B, T, D)
        out = merged @ self.Wo

        self.saved = {"x": x, "q": q, "k": k, "v": v, "attn": attn, "merged": merged}
        return out

    def backward(self, dout):
        s = self.saved
        x, q, k, v, attn, merged = s["x"], s["q"], s["k"], s["v"], s["attn"], s["merged"]
        B, T, D = x.shape
        H, d = self.num_heads, self.head_dim

        self.dWo = merged.reshape(B * T, D).T @ dout.reshape(B * T, D)
        dmerged = dout @ self.Wo.T
        dheads = dmerged.reshape(B, T, H, d).transpose(0, 2, 1, 3)

        # heads = attn @ v
        dattn = dheads @ v.transpose(0, 1, 3, 2)
        dv = attn.transpose(0, 1, 3, 2) @ dheads

        # softmax backward over the key axis
        inner = cp.sum(dattn * attn, axis=-1, keepdims=True)
        dscores = attn * (dattn - inner)

        scale = cp.sqrt(cp.float32(d))
        dq = (dscores @ k) / scale
        dk = (dscores.transpose(0, 1, 3, 2) @ q) / scale

        dq = dq.transpose(0, 2, 1, 3).reshape(B, T, D)
        dk = dk.transpose(0, 2, 1, 3).reshape(B, T, D)
        dv = dv.transpose(0, 2, 1, 3).reshape(B, T, D)

        xf = x.reshape(B * T, D)
        self.dWq = xf.T @ dq.reshape(B * T, D)
        self.dWk = xf.T @ dk.reshape(B * T, D)
        self.dWv = xf.T @ dv.reshape(B * T, D)

        return dq @ self.Wq.T + dk @ self.Wk.T + dv @ self.Wv.T
