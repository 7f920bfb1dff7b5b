import re


def pack_report(tokenizer, sections, max_length=512):
    """Whole sentences of the report, in order, until the token budget is spent; then special tokens and padding."""
    budget = max_length - tokenizer.num_special_tokens_to_add(pair=False)
    kept, seen = [], set()
    for sentence in re.split(r"(?<=[。！？!?；;])", "".join(sections)):
        sentence = re.sub(r"\s+", "", sentence)
        if len(sentence) < 10 or sentence in seen:
            continue
        piece = tokenizer.encode(sentence, add_special_tokens=False)
        if len(kept) + len(piece) > budget:
            break
        kept.extend(piece)
        seen.add(sentence)
    if not kept:
        raise ValueError("no complete sentence fits the budget")

    ids = tokenizer.build_inputs_with_special_tokens(kept)
    pad = max_length - len(ids)
    return {
        "input_ids": ids + [tokenizer.pad_token_id] * pad,
        "attention_mask": [1] * len(ids) + [0] * pad,
    }
