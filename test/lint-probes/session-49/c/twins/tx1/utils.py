def restrict(w, allowed):
    return w * allowed
