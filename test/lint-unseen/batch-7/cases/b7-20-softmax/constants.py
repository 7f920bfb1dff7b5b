DROPOUT = 0.2
context_size = 128
batch_size = 32
num_embeddings = 96
head_count = 4
layer_count = 4
