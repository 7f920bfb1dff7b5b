class Config:
    hidden = 256
    batch_first = True
    n_feats = 40
