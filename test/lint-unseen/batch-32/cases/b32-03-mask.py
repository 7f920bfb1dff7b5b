# case: b32-03-mask
# modelled-on: aidentZhang/transformer-fromscratch-python https://github.com/aidentZhang/transformer-fromscratch-python/commit/54fed9e370d9453932f2c46fdb8992b02c253d86
# label: buggy
# class: real-bug
# pattern: a decoder-only transformer written from scratch in NumPy (forward pass, hand-derived backprop, plain SGD; a character model trained to complete words): module-level weights per block and head (sWq, sWk of width k_DKey, sWv), an additive mask sSoftmaxMask = np.nan_to_num(-np.inf * np.tril(np.ones((T, T)), k=-1), nan=0), a softmax that divides np.exp(E) by its row sums (np.exp(E) @ ones((E.shape[1], 1))), and fowardprop, which after a layer norm adds each head's softmax(1 / sqrt(k_DKey) * E @ Wq @ (E @ Wk).T + sSoftmaxMask) @ (E @ Wv) to the residual stream; position 0 holds the start token and the loss at position i is the next character's
# why: buggy: np.tril(ones, k=-1) is 1 strictly below the diagonal, so the mask puts -inf (the most negative float after nan_to_num) on every earlier key and 0 on the query itself and every later one: each position attends to its own and future tokens only, so the next-token targets leak into the inputs and the first position can see the whole word (the causal mask is inverted); the author's next commit (54009fb67a0ee634022e6466c0a6ba59bed29a48) replaces it with np.triu(ones, k=1), which blocks the future. The scale 1/sqrt(k_DKey), the row-wise softmax and the key transpose (.T of the (T, d_key) keys) are right
# source: https://github.com/aidentZhang/transformer-fromscratch-python https://github.com/aidentZhang/transformer-fromscratch-python/commit/54fed9e370d9453932f2c46fdb8992b02c253d86 transformer.py
import numpy as np

# ------------------
# PARAM DECLARATIONS
k_DModel = 12
k_ContextLength = 5
k_VocabSize = 26 + 4  # start, end, pad and space
k_Attheads = 2
k_AttBlocks = 1
k_DQuery = 4
k_DKey = k_DQuery

sWe = np.random.normal(0, 0.02, size=(k_VocabSize, k_DModel))
sWpos = np.random.normal(0, 0.02, size=(k_ContextLength, k_DModel))
sWq = np.random.normal(0, np.sqrt(2 / (k_DModel + k_DKey)), size=(k_AttBlocks, k_Attheads, k_DModel, k_DKey)) / np.sqrt(k_Attheads)
sWk = np.random.normal(0, np.sqrt(2 / (k_DModel + k_DKey)), size=(k_AttBlocks, k_Attheads, k_DModel, k_DKey)) / np.sqrt(k_Attheads)
sWv = np.random.normal(0, np.sqrt(1 / k_DModel), size=(k_AttBlocks, k_Attheads, k_DModel, k_DModel)) / np.sqrt(k_Attheads)
sMLPW1 = np.random.normal(0, np.sqrt(2 / (5 * k_DModel)), size=(k_AttBlocks, k_DModel, k_DModel * 4))
sMLPW2 = np.random.normal(0, np.sqrt(2 / (5 * k_DModel)), size=(k_AttBlocks, k_DModel * 4, k_DModel))
sMLPb1 = np.ones((k_AttBlocks, 1, k_DModel * 4))
sMLPb2 = np.zeros((k_AttBlocks, 1, k_DModel))
sLNGain = np.ones((k_AttBlocks, 2, k_DModel))
sLNBias = np.zeros((k_AttBlocks, 2, k_DModel))
sLW = np.random.normal(0, np.sqrt(2 / (k_DModel + k_VocabSize)), size=(k_DModel, k_VocabSize))
sLB = np.zeros((1, k_VocabSize))
sSoftmaxMask = np.nan_to_num(-np.inf * np.tril(np.ones((k_ContextLength, k_ContextLength)), k=-1), nan=0)


# ------------------
# TRANSFORMER FUNCTIONS
def layerNorm(E, attLayer, prePostMLP):
    temp = np.nan_to_num((E - np.mean(E, axis=-1, keepdims=True)) / np.sqrt(np.var(E, axis=-1, keepdims=True) + 0.00001))
    return sLNBias[attLayer, prePostMLP] + temp * sLNGain[attLayer, prePostMLP], temp


def softmax(E):
    return np.exp(E) / (np.exp(E) @ np.ones((E.shape[1], 1)))


def relu(E):
    return np.maximum(0, E)


# ------------------
# FORWARD PROPAGATE
def fowardprop(We_to_E, length):
    E_soft_cache = np.empty((k_AttBlocks, k_Attheads, k_ContextLength, k_ContextLength))
    E = We_to_E @ sWe
    E[: length + 1] += sWpos[: length + 1]

    currAttBlock = 0
    while currAttBlock < k_AttBlocks:
        E, _ = layerNorm(E, currAttBlock, 0)
        currAttHead = 0
        while currAttHead < k_Attheads:
            Q = E @ sWq[currAttBlock, currAttHead]
            K = E @ sWk[currAttBlock, currAttHead]
            E_soft_cache[currAttBlock, currAttHead] = softmax(1 / np.sqrt(k_DKey) * Q @ K.T + sSoftmaxMask)  # expect: ATT002
            E += E_soft_cache[currAttBlock, currAttHead] @ (E @ sWv[currAttBlock, currAttHead])
            currAttHead += 1
        E, _ = layerNorm(E, currAttBlock, 1)
        E += relu(E @ sMLPW1[currAttBlock] + sMLPb1[currAttBlock]) @ sMLPW2[currAttBlock] + sMLPb2[currAttBlock]
        currAttBlock += 1
    E = E @ sLW + sLB
    return softmax(E), E_soft_cache
