block_size = 32  # every sequence is padded to this length
n_embd = 64
n_head = 2
n_hidden = 100
