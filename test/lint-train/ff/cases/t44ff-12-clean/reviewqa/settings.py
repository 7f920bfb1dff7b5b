import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")

hidden_dim = 256
emb_dim = 300
batch_size = 100
beam_size = 4
max_question_steps = 20
max_review_steps = 50
max_dec_steps = 100
vocab_size = 50000

pointer_gen = True
is_coverage = False
eps = 1e-12
