# case: b32-04-mask
# modelled-on: aidentZhang/transformer-fromscratch-python https://github.com/aidentZhang/transformer-fromscratch-python/commit/05a492110e30d377d45366f50afce6e61bbab7c9
# label: correct
# class: fixed
# pattern: the same NumPy-only decoder transformer as b32-03, in the inference module the author later wrote for serving it with a key/value cache (the module aliases numpy as cp so it can switch to CuPy): __init__ builds the additive causal mask from triu(ones, k=1), the fix of b32-03's tril(ones, k=-1) (commit 54009fb67a0ee634022e6466c0a6ba59bed29a48), as nan_to_num(-inf * triu(ones, k=1), nan=0.0); softmax subtracts the row max over axis=-1 and wraps the quotient in nan_to_num; the forward pass writes the newest token's key and value rows into fixed-size caches of the full context length, projects queries for every position and adds the causal mask and a per-batch padding mask (-inf beyond the generated length, broadcast over heads with expand_dims) to 1 / sqrt(k_DKey) * Q @ transpose(K, [0, 1, 3, 2]) before the softmax
# why: correct: -inf * triu(ones, k=1) is -inf strictly above the diagonal and nan on and below it; nan_to_num turns the nan into 0 and the -inf into the most negative finite float, so the additive mask blocks exactly the future (each query keeps its past and itself); the padding mask blocks the unwritten cache slots (columns past the current token), which always leaves the first column visible, so no row is all -inf; transpose(K, [0, 1, 3, 2]) swaps only the last two axes of (batch, heads, context, d_key); k_DKey is one head's key width; the softmax runs over the keys. The file is a later module of the repository, not the fixed commit's file, so that it shares no code run with b32-03
# looks-like: ATT001, ATT002, ATT005, ATT007, ATT008
# source: https://github.com/aidentZhang/transformer-fromscratch-python https://github.com/aidentZhang/transformer-fromscratch-python/commit/05a492110e30d377d45366f50afce6e61bbab7c9 transformer/app/transformer_large_kv.py
import numpy as np
import numpy as cp


class transformer_inf_large:
    def __init__(self, weights, train_params):
        self.sWq = weights["sWq"]
        self.sWk = weights["sWk"]
        self.sWv = weights["sWv"]
        self.sWo = weights["sWo"]
        self.sMLPW1 = weights["sMLPW1"]
        self.sMLPW2 = weights["sMLPW2"]
        self.sMLPb1 = weights["sMLPb1"]
        self.sMLPb2 = weights["sMLPb2"]
        self.sLNGain = weights["sLNGain"]
        self.sLNBias = weights["sLNBias"]
        self.k_DModel = train_params["k_DModel"]
        self.k_ContextLength = train_params["k_ContextLength"]
        self.k_Attheads = train_params["k_Attheads"]
        self.k_AttBlocks = train_params["k_AttBlocks"]
        self.k_DKey = train_params["k_DQuery"]
        self.k_BatchSize = train_params["k_BatchSize"]

        self.sSoftmaxMask = cp.nan_to_num(
            -cp.inf * cp.triu(cp.ones((self.k_ContextLength, self.k_ContextLength), dtype=cp.float32), k=1),
            nan=0.0,
        )
        self.k_cache = np.zeros([self.k_AttBlocks, self.k_BatchSize, self.k_Attheads, self.k_ContextLength, self.k_DKey])
        self.v_cache = np.zeros(
            [self.k_AttBlocks, self.k_BatchSize, self.k_Attheads, self.k_ContextLength, self.k_DModel // self.k_Attheads]
        )

    def layerNorm(self, E, attLayer, prePostMLP):
        temp = (E - cp.mean(E, axis=-1, keepdims=True)) / cp.sqrt(cp.var(E, axis=-1, keepdims=True) + 0.00001)
        return self.sLNBias[attLayer, prePostMLP] + temp * self.sLNGain[attLayer, prePostMLP]

    def softmax(self, E):
        exp_ = cp.exp(E - cp.max(E, axis=-1, keepdims=True))
        return cp.nan_to_num(exp_ / cp.sum(exp_, axis=-1, keepdims=True))

    def relu(self, E):
        return cp.maximum(0, E)

    def heads(self, E_ln, W, width):
        B, T = E_ln.shape[0], E_ln.shape[1]
        flat = cp.reshape(cp.transpose(W, [1, 0, 2]), [self.k_DModel, width * self.k_Attheads])
        return cp.transpose(cp.reshape(E_ln @ flat, [B, T, self.k_Attheads, width]), [0, 2, 1, 3])

    def fowardprop(self, embeddings, padMask, last_token):
        k_DKey = self.k_DKey
        k_DHead = self.k_DModel // self.k_Attheads
        E = np.array(embeddings)
        for block in range(self.k_AttBlocks):
            E_ln = self.layerNorm(E, block, 0)
            K = self.k_cache[block]
            V = self.v_cache[block]
            K[:, :, last_token, :] = self.heads(E_ln[:, last_token : last_token + 1, :], self.sWk[block], k_DKey)[:, :, 0, :]
            V[:, :, last_token, :] = self.heads(E_ln[:, last_token : last_token + 1, :], self.sWv[block], k_DHead)[:, :, 0, :]
            Q = self.heads(E_ln, self.sWq[block], k_DKey)

            weights = self.softmax(
                1 / cp.sqrt(k_DKey) * Q @ cp.transpose(K, [0, 1, 3, 2])
                + self.sSoftmaxMask
                + cp.expand_dims(padMask, axis=1)
            )
            context = cp.transpose(weights @ V, [0, 2, 1, 3])
            E += cp.reshape(context, [E.shape[0], self.k_ContextLength, self.k_DModel]) @ self.sWo[block]

            E_ln = self.layerNorm(E, block, 1)
            E += self.relu(E_ln @ self.sMLPW1[block] + self.sMLPb1[block]) @ self.sMLPW2[block] + self.sMLPb2[block]
        return E

    def padding_mask(self, k):
        padMask = cp.zeros((self.k_BatchSize, self.k_ContextLength, self.k_ContextLength))
        for i in range(self.k_BatchSize):
            padMask[i, :, k + 1 : self.k_ContextLength] = -cp.inf
        return padMask
