"""Axis roles of attention scores, tracked through the ops that reshape them.

A score tensor made by ``a @ b`` (a: [..., T, d], b: [..., d, S]) has axes [batch..., "row", "col"]: "row"
comes from a's free axis and "col" from b's. Which of the two is the key axis is decided later by the matmul
with v (the axis it contracts); until then both are only tracked.
"""

BATCH, ROW, COL = "b", "row", "col"


def matmul_roles(a_shape, b_shape):
    """Roles of a @ b, or None when it is not a product of two matrices (or stacks of them)."""
    if len(a_shape) < 2 or len(b_shape) < 2:
        return None
    ndim = max(len(a_shape), len(b_shape))
    return [BATCH] * (ndim - 2) + [ROW, COL]


def parse_einsum(equation, ndims):
    """Splits an einsum equation of two operands into (inputs, output) letter lists; '...' becomes one letter per
    broadcast axis (upper-case placeholders). None when the equation is not a two-operand one we understand."""
    eq = equation.replace(" ", "")
    if "->" not in eq:
        return None
    lhs, out = eq.split("->")
    ins = lhs.split(",")
    if len(ins) != 2 or len(ndims) != 2:
        return None
    ell_letters = None
    parsed = []
    for spec, ndim in zip(ins, ndims):
        if "..." in spec:
            before, after = spec.split("...")
            n_ell = ndim - len(before) - len(after)
            if n_ell < 0:
                return None
            letters = list(before) + ["ELL%d" % i for i in range(n_ell)] + list(after)
            ell_letters = max(ell_letters or [], ["ELL%d" % i for i in range(n_ell)], key=len)
        else:
            letters = list(spec)
        if len(letters) != ndim:
            return None
        parsed.append(letters)
    if "..." in out:
        before, after = out.split("...")
        out_letters = list(before) + list(ell_letters or []) + list(after)
    else:
        out_letters = list(out)
    return parsed, out_letters


def einsum_score_layout(equation, a_ndim, b_ndim):
    """For a score einsum such as 'bhid,bhjd->bhij': (perm_a, perm_b, out_roles) where a.permute(perm_a) is
    [batch..., T, d], b.permute(perm_b) is [batch..., d, S] and out_roles are the output's axis roles. None when
    the equation is not one contraction of one axis with one free axis per operand."""
    parsed = parse_einsum(equation, (a_ndim, b_ndim))
    if parsed is None:
        return None
    (la, lb), lo = parsed
    contracted = [c for c in la if c in lb and c not in lo]
    free_a = [c for c in la if c not in lb and c in lo]
    free_b = [c for c in lb if c not in la and c in lo]
    batch = [c for c in lo if c in la and c in lb]
    if len(contracted) != 1 or len(free_a) != 1 or len(free_b) != 1:
        return None
    if len(la) != len(batch) + 2 or len(lb) != len(batch) + 2 or len(lo) != len(batch) + 2:
        return None
    perm_a = [la.index(c) for c in batch] + [la.index(free_a[0]), la.index(contracted[0])]
    perm_b = [lb.index(c) for c in batch] + [lb.index(contracted[0]), lb.index(free_b[0])]
    roles = [ROW if c == free_a[0] else COL if c == free_b[0] else BATCH for c in lo]
    return perm_a, perm_b, roles


def einsum_contracted_axis(equation, a_ndim, b_ndim, operand):
    """The axis of operand `operand` (0 or 1) that the einsum sums over, when exactly one is; else None."""
    parsed = parse_einsum(equation, (a_ndim, b_ndim))
    if parsed is None:
        return None
    (la, lb), lo = parsed
    mine, other = (la, lb) if operand == 0 else (lb, la)
    contracted = [i for i, c in enumerate(mine) if c in other and c not in lo]
    return contracted[0] if len(contracted) == 1 else None


def transpose_roles(roles, d0, d1):
    n = len(roles)
    d0, d1 = d0 % n, d1 % n
    out = list(roles)
    out[d0], out[d1] = out[d1], out[d0]
    return out


def permute_roles(roles, dims):
    n = len(roles)
    return [roles[d % n] for d in dims]


def reshape_roles(roles, old_shape, new_shape):
    """Roles after view/reshape: kept when the last two axes (row and col, in either order) keep their sizes and
    only the batch axes are merged or split; else None (tracking stops)."""
    if len(old_shape) < 2 or len(new_shape) < 2:
        return None
    if roles[-2:] not in ([ROW, COL], [COL, ROW]) or any(r != BATCH for r in roles[:-2]):
        return None
    if tuple(old_shape[-2:]) != tuple(new_shape[-2:]):
        return None
    return [BATCH] * (len(new_shape) - 2) + list(roles[-2:])


def broadcast_roles(roles, out_ndim):
    """Roles of an elementwise result that broadcast to more leading axes."""
    return [BATCH] * (out_ndim - len(roles)) + list(roles)
