import torch as th
import torch.nn as nn


class LayoutEncoder(nn.Module):
    """Embeds the layout objects (class + box) of an image; padding objects have is_valid_obj == 0."""

    def __init__(self, num_classes, hidden_dim, out_dim):
        super().__init__()
        self.obj_class_embedding = nn.Embedding(num_classes, hidden_dim)
        self.obj_bbox_embedding = nn.Linear(4, hidden_dim)
        self.out = nn.Linear(hidden_dim, out_dim)

    def forward(self, obj_class, obj_bbox, is_valid_obj):
        xf = self.obj_class_embedding(obj_class) + self.obj_bbox_embedding(obj_bbox)  # (N, L2, hidden)
        return {
            "xf_out": self.out(xf).permute(0, 2, 1),             # (N, out_dim, L2)
            "obj_bbox_embedding": xf.permute(0, 2, 1),           # (N, hidden, L2)
            "key_padding_mask": (1 - is_valid_obj).bool(),       # (N, L2)
        }
