def split_heads(x, n_head, k=False):
    new_x_shape = x.size()[:-1] + (n_head, x.size(-1) // n_head)
    x = x.view(*new_x_shape)
    if k:
        return x.permute(0, 2, 3, 1)
    return x.permute(0, 2, 1, 3)


def merge_heads(x):
    x = x.permute(0, 2, 1, 3).contiguous()
    return x.view(*x.size()[:-2], x.size(-2) * x.size(-1))
