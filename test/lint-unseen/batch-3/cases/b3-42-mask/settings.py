vocab_size = 10000
context_size = 100
embedding_size = 512
key_size = 64
head_size = 64
layer_size = embedding_size // head_size
num_layers = 6
