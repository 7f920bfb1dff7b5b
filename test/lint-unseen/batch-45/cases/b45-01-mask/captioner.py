import torch
import torch.nn as nn

from caption_decoder import CaptionDecoderLayer


class PatchCaptioner(nn.Module):
    def __init__(self, vocab, patch_embed, encoder_layers, d_model=300, n_heads=4, max_len=50):
        super().__init__()
        self.vocab = vocab
        self.max_len = max_len
        self.patch_embed = patch_embed
        self.encoder = nn.Sequential(*encoder_layers)
        self.word_embed = nn.Embedding(len(vocab.w2i), d_model)
        self.decoder = CaptionDecoderLayer(d_model=d_model, n_heads=n_heads, vocab_size=len(vocab.w2i))

    def forward(self, images, caption_ids):
        memory = self.encoder(self.patch_embed(images))
        keep = caption_ids != self.vocab.w2i["<PAD>"]
        return self.decoder(self.word_embed(caption_ids), memory, token_keep=keep)

    @torch.no_grad()
    def greedy_caption(self, image):
        self.eval()
        memory = self.encoder(self.patch_embed(image.unsqueeze(0)))
        memory_keep = torch.ones(memory.shape[:2], dtype=torch.bool, device=memory.device)
        ids = [self.vocab.w2i["<START>"]]
        for _ in range(self.max_len):
            seq = torch.tensor([ids], device=memory.device)
            keep = seq != self.vocab.w2i["<PAD>"]
            logits = self.decoder(self.word_embed(seq), memory, token_keep=keep, memory_keep=memory_keep)
            nxt = int(logits[0, -1].argmax())
            if nxt == self.vocab.w2i["<END>"]:
                break
            ids.append(nxt)
        return " ".join(self.vocab.i2w[i] for i in ids[1:])
