import numpy as np

from models.attention.attention import MultiHeadAttention
from functions.activation_funcs import SoftMax

batch_size, embedding_dim, seq_len, num_heads = 2, 6, 7, 2

np.random.seed(1)
data = np.random.normal(loc=0, scale=1, size=(batch_size, seq_len, embedding_dim))
label = np.zeros((batch_size, seq_len, embedding_dim))

mha = MultiHeadAttention(d_model=embedding_dim, h=num_heads, softmax=SoftMax())
mha_vals = mha._forward(activation_q=data, activation_k=data, activation_v=data)
assert mha_vals.shape == (batch_size, seq_len, embedding_dim)
grads = mha._backward(activation_q=data, activation_k=data, activation_v=data, label=label)
