hidden_dim = 256
emb_dim = 128
max_enc_steps = 400
max_dec_steps = 100
pointer_gen = True
is_coverage = False
cov_loss_wt = 1.0
