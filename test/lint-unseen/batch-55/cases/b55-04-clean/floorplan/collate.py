import torch


def pad_elements(samples):
    """Pads variable-size sets of drawing primitives; mask is True on real elements."""
    longest = max(int(s["count"]) for s in samples)
    n, dim = len(samples), samples[0]["features"].shape[-1]
    feats = torch.zeros(n, longest, dim)
    classes = torch.full((n, longest), -1, dtype=torch.long)
    groups = torch.full((n, longest), -1, dtype=torch.long)
    mask = torch.zeros(n, longest, dtype=torch.bool)
    for row, s in enumerate(samples):
        k = int(s["count"])
        feats[row, :k] = s["features"]
        classes[row, :k] = s["classes"]
        groups[row, :k] = s["groups"]
        mask[row, :k] = True
    return {"features": feats, "classes": classes, "groups": groups, "mask": mask}
