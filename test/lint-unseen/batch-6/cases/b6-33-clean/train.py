from src.attention import Attention
from src.embedder import Embedder

embed_dim, reduced_dim, vocab_size = 16, 4, 128
embedder = Embedder(embed_dim=embed_dim, vocab_size=vocab_size)
token_ids = [7, 12, 3, 3, 40, 1]
attention = Attention(embedder.embedding(token_ids), embed_dim, reduced_dim)
attention.create_matrices()
attention.create_vectors()
attention.dot_product()
attention.softmax()
attention.aggregate_values()
out = attention.project_output()
