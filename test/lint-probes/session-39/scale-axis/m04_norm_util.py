def renormalise(w, eps=1e-9):
    # rows of w: (..., S) -> sum to 1 again
    return w / (w.sum(dim=-1, keepdim=True) + eps)
