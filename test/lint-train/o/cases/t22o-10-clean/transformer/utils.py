import torch


def create_padding_mask(seq):
    """1.0 where the token is padding (id 0): (batch, 1, 1, len)."""
    return (seq == 0).float().unsqueeze(1).unsqueeze(2)


def create_look_ahead_mask(seq_len):
    """1.0 on the future positions."""
    return (torch.triu(torch.ones((seq_len, seq_len))) == 0).transpose(0, 1).float()


def create_masks(inp, tar):
    enc_padding_mask = create_padding_mask(inp)
    # used by the decoder's second attention block, over the encoder output
    dec_padding_mask = create_padding_mask(inp)
    # used by the decoder's first attention block: padding and future target tokens
    look_ahead_mask = create_look_ahead_mask(tar.size()[1])
    dec_target_padding_mask = create_padding_mask(tar)
    combined_mask = torch.max(dec_target_padding_mask, look_ahead_mask)
    return enc_padding_mask, combined_mask, dec_padding_mask
