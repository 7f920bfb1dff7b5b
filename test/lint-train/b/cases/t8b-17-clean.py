# case: t8b-17-clean
# modelled-on: Furvos/self_attention https://github.com/Furvos/self_attention/commit/1c27ec16af6fcd4d28a46caa07cd4c97c64c89f9
# label: correct
# class: clean
# pattern: a NumPy walk-through of self-attention on 2x2 matrices: logits = np.dot(queries, keys.T), divided by the square root of the key width keys.shape[1], a hand-written row softmax that subtracts the row max and normalises with axis=1 and keepdims, then the weights times the values
# why: correct: queries and keys are 2-D (tokens, d), so keys.T is exactly the transposed key matrix and keys.shape[1] is d_k; on the 2-D (queries, keys) logits axis=1 is the key axis, and keepdims keeps each row's sum broadcast over that row
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/Furvos/self_attention https://github.com/Furvos/self_attention/commit/1c27ec16af6fcd4d28a46caa07cd4c97c64c89f9 test_attention.py
import numpy as np

queries = np.array([[1, 1], [0, 1]])
keys = np.array([[0, 1], [2, 3]])
values = np.array([[1, 2], [3, 4]])

attention_logits = np.dot(queries, keys.T)

# d_k: the dimension of the key vectors (number of columns of keys)
key_vector_dimension = keys.shape[1]
scaled_attention_logits = attention_logits / np.sqrt(key_vector_dimension)


def row_softmax(logits_matrix):
    stabilized_logits = logits_matrix - np.max(logits_matrix, axis=1, keepdims=True)
    exponentials = np.exp(stabilized_logits)
    return exponentials / np.sum(exponentials, axis=1, keepdims=True)


attention_weights = row_softmax(scaled_attention_logits)
self_attention_output = np.dot(attention_weights, values)

print("QK^T (attention logits) =", attention_logits)
print("scaled attention logits =", scaled_attention_logits)
print("attention weights =", attention_weights)
print("self-attention output =", self_attention_output)
