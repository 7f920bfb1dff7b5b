import torch


class ModelRunner:
    def __init__(self, model, device, sample):
        self.model = model  # layers call PagedAttention(hidden, position_ids, kv) with kv = (k, v) or None
        self.device = device
        self.sample = sample

    @torch.inference_mode()
    def prefill_with_prefix_cache(self, requests):
        """Batch-prefill requests that share the same cached prefix blocks and suffix length."""
        rep = requests[0]
        cached_blocks = rep.block_table.blocks
        num_layers = len(cached_blocks[0].layer_kv)
        prefix_len = rep.cached_prefix_len
        cached_kv = []
        for layer_idx in range(num_layers):
            k = torch.cat([b.layer_kv[layer_idx][0] for b in cached_blocks], dim=2)
            v = torch.cat([b.layer_kv[layer_idx][1] for b in cached_blocks], dim=2)
            cached_kv.append((k, v))

        suffixes = [r.prompt_token_ids[r.cached_prefix_len:] for r in requests]
        suffix_len = len(suffixes[0])
        batch = len(requests)
        input_ids = torch.tensor(suffixes, device=self.device)  # (B, suffix_len)
        position_ids = torch.arange(prefix_len, prefix_len + suffix_len, device=self.device).unsqueeze(0).expand(batch, -1)
        batched_kv = [(k.expand(batch, -1, -1, -1), v.expand(batch, -1, -1, -1)) for k, v in cached_kv]

        logits, new_kv = self.model(input_ids, position_ids, kv_caches=batched_kv)
        sampled = self.sample(logits)
        for i, request in enumerate(requests):
            request.last_token_id = sampled[i].item()
            request.kv_cache = [(k[i : i + 1], v[i : i + 1]) for k, v in new_kv]
            request.kv_seq_len = prefix_len + suffix_len
