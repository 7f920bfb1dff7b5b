import torch
import torch.nn as nn

from fusion.cross import VisionToText
from fusion.text import InstructionEncoder


class InstructionPolicyFeatures(nn.Module):
    def __init__(self, vision_encoder, width=768, state_dim=32, out_dim=128, device="cuda"):
        super().__init__()
        self.vision = vision_encoder
        self.text = InstructionEncoder(device=device)
        self.fuse = VisionToText(width=width)
        self.out = nn.Linear(width + state_dim, out_dim)

    def forward(self, image, instructions, state):
        global_feat = self.vision(image)  # (B, D)
        enc = self.text(instructions)
        text_mask = enc["attention_mask"]  # (B, L)
        fused, _ = self.fuse(global_feat.unsqueeze(1), enc["tokens"], text_mask=text_mask)
        return self.out(torch.cat([fused[:, 0], state], dim=-1))
