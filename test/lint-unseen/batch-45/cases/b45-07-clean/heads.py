"""Grouped-query helpers: which query heads read which key/value head."""


def kv_head_of(query_head, n_query_heads, n_kv_heads):
    return query_head // (n_query_heads // n_kv_heads)


def group_by_kv_head(query_heads, n_query_heads, n_kv_heads):
    """[(kv_head, output rows, query heads)] for the requested query heads, one entry per kv head."""
    groups = {}
    for row, qh in enumerate(query_heads):
        entry = groups.setdefault(kv_head_of(qh, n_query_heads, n_kv_heads), ([], []))
        entry[0].append(row)
        entry[1].append(qh)
    return [(kv, rows, qhs) for kv, (rows, qhs) in sorted(groups.items())]
