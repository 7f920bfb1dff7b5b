# case: b31-05-clean
# modelled-on: JackHanke/nets https://github.com/JackHanke/nets/commit/2715d3fbee6d1e014d3a0c4c9db7e1023cf688dd
# label: correct
# class: clean
# pattern: a NumPy-only multi-head attention written as a from-scratch exercise (checked against torch's nn.MultiheadAttention in the repository's test): each head projects q, k and v with its own (d_model, d_k) matrix, transposes the keys with np.transpose(k_bar, axes=(0, 2, 1)), multiplies, and passes t / sqrt(d_k) to a softmax object injected by the caller (functions/activation_funcs.py: SoftMax reduces over axis=2 of a (batch, row, column) array); the heads are concatenated on axis 2 and projected; a hand-written backward pass reuses the cached intermediates
# why: correct: the per-head tensors are 3-D (batch, sequence, d_k), so axes=(0, 2, 1) swaps exactly the sequence and feature axes of the keys and q_bar @ k_t_bar gives (batch, queries, keys); the injected softmax reduces over axis 2, the keys; the scale is 1/sqrt(d_k) with d_k = d_model // h, the per-head width; there is no mask
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/JackHanke/nets https://github.com/JackHanke/nets/commit/2715d3fbee6d1e014d3a0c4c9db7e1023cf688dd models/attention/attention.py
## an academic exercise: not memory efficient
import numpy as np

np.random.seed(1)


class MultiHeadAttention:
    def __init__(self, d_model: int, h: int, softmax: callable, w_q: list = None, w_k: list = None,
                 w_v: list = None, w_o: np.array = None):
        self.d_model = d_model
        self.h = h
        self.softmax = softmax
        assert (d_model % h) == 0
        self.d_k = d_model // h

        if w_q is None:
            w_q = [np.random.normal(loc=0, scale=1, size=(self.d_model, self.d_k)) for _ in range(h)]
        if w_k is None:
            w_k = [np.random.normal(loc=0, scale=1, size=(self.d_model, self.d_k)) for _ in range(h)]
        if w_v is None:
            w_v = [np.random.normal(loc=0, scale=1, size=(self.d_model, self.d_k)) for _ in range(h)]
        if w_o is None:
            w_o = np.random.normal(loc=0, scale=1, size=(self.d_model, self.d_model))
        self.query_weights_list = w_q
        self.key_weights_list = w_k
        self.value_weights_list = w_v
        self.output_weights = w_o

    def _scaled_dot_attention(self, activation_q, activation_k, activation_v, cache, i):
        q_bar = np.matmul(activation_q, self.query_weights_list[i])
        k_bar = np.matmul(activation_k, self.key_weights_list[i])
        v_bar = np.matmul(activation_v, self.value_weights_list[i])

        # intermediate t value
        k_t_bar = np.transpose(k_bar, axes=(0, 2, 1))
        t = np.matmul(q_bar, k_t_bar)

        # softmaxed matrix s
        s = self.softmax.function(x=t / np.sqrt(self.d_k))
        if cache is not None:
            cache['q_bar'].append(q_bar)
            cache['k_bar'].append(k_bar)
            cache['v_bar'].append(v_bar)
            cache['t'].append(t)
            cache['s'].append(s)
        return np.matmul(s, v_bar)

    def _forward(self, activation_q, activation_k, activation_v, include=False):
        cache = {'q_bar': [], 'k_bar': [], 'v_bar': [], 't': [], 's': []} if include else None
        head_list = [
            self._scaled_dot_attention(activation_q, activation_k, activation_v, cache, i) for i in range(self.h)
        ]
        C = np.concatenate(head_list, axis=2)
        out = np.matmul(C, self.output_weights)
        if include:
            return out, cache, C
        return out

    def _backward(self, activation_q, activation_k, activation_v, label):
        out, cache, C = self._forward(activation_q, activation_k, activation_v, include=True)
        grad_output_weights = np.matmul(np.transpose(C, axes=(0, 2, 1)), (out - label))
        A = np.matmul((out - label), np.transpose(self.output_weights))

        grads_q, grads_k, grads_v = [], [], []
        for i in range(self.h):
            B = self.softmax.function_prime(cache['t'][i] / np.sqrt(self.d_k)) / np.sqrt(self.d_k)
            A_slice = A[:, :, self.d_k * i:self.d_k * (i + 1)]
            v_t = np.transpose(cache['v_bar'][i], axes=(0, 2, 1))

            grad_v = np.matmul(np.transpose(activation_v, axes=(0, 2, 1)),
                               np.matmul(np.transpose(cache['s'][i], axes=(0, 2, 1)), A_slice))
            grad_q = np.transpose(activation_q, axes=(0, 2, 1))
            for term in [A_slice, v_t, B, cache['k_bar'][i]]:
                grad_q = np.matmul(grad_q, term)
            temp = v_t
            for term in [A_slice, v_t, B]:
                temp = np.matmul(temp, term)
            grad_k = np.matmul(np.transpose(activation_k, axes=(0, 2, 1)), np.transpose(temp, axes=(0, 2, 1)))

            grads_v.append(np.mean(grad_v, axis=0))
            grads_q.append(np.mean(grad_q, axis=0))
            grads_k.append(np.mean(grad_k, axis=0))

        return np.mean(grad_output_weights, axis=0), grads_q, grads_k, grads_v
