import torch


def attendable(q, key_len, key_valid=None, query_valid=None, causal=True, positions=None):
    """Boolean (batch, queries, keys) map, True where a query may look at a key.

    With a KV cache the queries are the last `queries` of `key_len` positions, so by default
    query i sits at absolute position key_len - queries + i.
    """
    batch, queries = q.shape[:2]
    if key_valid is None:
        key_valid = torch.ones(batch, key_len, dtype=torch.bool, device=q.device)
    if key_valid.dtype != torch.bool:
        raise TypeError("key_valid must be boolean")
    if query_valid is None:
        query_valid = torch.ones(batch, queries, dtype=torch.bool, device=q.device)
    allowed = key_valid[:, None, :].expand(batch, queries, key_len)
    if causal:
        if positions is None:
            start = key_len - queries
            positions = (torch.arange(queries, device=q.device) + start)[None, :].expand(batch, -1)
        key_index = torch.arange(key_len, device=q.device)
        allowed = allowed & (key_index[None, None, :] <= positions[:, :, None])
    return allowed & query_valid[:, :, None]
