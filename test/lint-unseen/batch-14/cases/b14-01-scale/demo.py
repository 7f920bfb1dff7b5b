import torch

from layers.causal import CausalSelfAttention

# three-dimensional token embeddings projected to two dimensions, as in the book's chapter on attention
inputs = torch.tensor(
    [
        [0.43, 0.15, 0.89],
        [0.55, 0.87, 0.66],
        [0.57, 0.85, 0.64],
        [0.22, 0.58, 0.33],
        [0.77, 0.25, 0.10],
        [0.05, 0.80, 0.55],
    ]
)
batch = torch.stack((inputs, inputs), dim=0)

if __name__ == "__main__":
    torch.manual_seed(123)
    attention = CausalSelfAttention(d_in=3, d_out=2, context_length=batch.shape[1], dropout=0.0)
    print(attention(batch).shape)
