import torch


class FlatCache:
    """K/V buffers shaped (layers, batch, heads, max_len, head_dim); `filled` counts cached tokens."""

    def __init__(self, layers, batch, heads, max_len, head_dim, device=None, dtype=torch.float32):
        shape = (layers, batch, heads, max_len, head_dim)
        self.k = torch.zeros(shape, device=device, dtype=dtype)
        self.v = torch.zeros(shape, device=device, dtype=dtype)
        self.filled = 0

    def put(self, layer, start, k, v):
        n = k.shape[2]
        self.k[layer, :, :, start:start + n] = k
        self.v[layer, :, :, start:start + n] = v

    def take(self, layer, upto):
        return self.k[layer, :, :, :upto], self.v[layer, :, :, :upto]


class BlockPool:
    def __init__(self, layers, n_blocks, heads, block, head_dim, device=None, dtype=torch.float32):
        self.block = block
        self.heads = heads
        self.head_dim = head_dim
        shape = (layers, n_blocks, heads, block, head_dim)
        self.k_pool = torch.zeros(shape, device=device, dtype=dtype)
        self.v_pool = torch.zeros(shape, device=device, dtype=dtype)
        self.free = list(range(n_blocks))


class PagedCache:
    """One sequence's cache, its tokens spread over blocks of a shared pool."""

    def __init__(self, pool):
        self.pool = pool
        self.table = []
        self.filled = 0

    def _grow(self, n_tokens):
        need = -(-n_tokens // self.pool.block)
        while len(self.table) < need:
            if not self.pool.free:
                raise RuntimeError("out of KV blocks")
            self.table.append(self.pool.free.pop())

    def put(self, layer, start, k, v):
        if k.shape[0] != 1:
            raise ValueError("a paged cache holds one sequence")
        self._grow(start + k.shape[2])
        for i in range(k.shape[2]):
            blk, slot = divmod(start + i, self.pool.block)
            self.pool.k_pool[layer, self.table[blk], :, slot] = k[0, :, i]
            self.pool.v_pool[layer, self.table[blk], :, slot] = v[0, :, i]

    def take(self, layer, upto):
        ids = self.table[: -(-upto // self.pool.block)]

        def gather(buf):
            flat = buf[layer, ids].transpose(0, 1).reshape(self.pool.heads, -1, self.pool.head_dim)
            return flat[:, :upto].unsqueeze(0)

        return gather(self.pool.k_pool), gather(self.pool.v_pool)
