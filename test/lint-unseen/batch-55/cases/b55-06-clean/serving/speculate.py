import torch


def draft_then_verify(target, draft, kv, draft_kv, running, gamma, probs, sample, accept, rng):
    """One round: the draft proposes gamma tokens from the pending one, the target scores all gamma + 1 at once."""
    sids = [s.sid for s in running]
    device = target.device
    proposals = {sid: [] for sid in sids}
    draft_rows = {sid: [] for sid in sids}
    last = [s.generated[-1] for s in running]
    for _ in range(gamma):
        step_ids = torch.tensor(last, dtype=torch.long, device=device)
        logits = draft.decode(step_ids, draft_kv, sids, [draft_kv.seq_lengths[sid] for sid in sids])
        for b, s in enumerate(running):
            p = probs(logits[b])
            draft_rows[s.sid].append(p)
            proposals[s.sid].append(sample(p, rng))
        last = [proposals[s.sid][-1] for s in running]

    # the pending token is not in the cache yet, so each sequence's chunk starts at its cache length
    starts = [kv.seq_lengths[sid] for sid in sids]
    block = torch.tensor([[s.generated[-1]] + proposals[s.sid] for s in running], dtype=torch.long, device=device)
    target_logits = target.decode_block(block, kv, sids, starts)  # writes the chunk, then extend_chunk per layer
    committed = accept(
        {sid: probs(target_logits[b]) for b, sid in enumerate(sids)}, draft_rows, proposals, rng
    )

    for s in running:
        s.generated.extend(committed[s.sid])
        keep = len(s.prompt_ids) + len(s.generated) - 1
        kv.truncate(s.sid, keep)
        if draft_kv.seq_lengths[s.sid] > keep:
            draft_kv.truncate(s.sid, keep)
    return committed
