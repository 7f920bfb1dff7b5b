# model sizes, as in the paper's base model
heads = 8
d_k = 64
d_v = 64
d_model = 512
d_ff = 2048
layers = 6
