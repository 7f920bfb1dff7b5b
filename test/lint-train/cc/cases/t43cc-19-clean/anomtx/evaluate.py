import torch
import torch.nn.functional as F


def association_discrepancy(series_list, prior_list):
    """Symmetric KL between prior and series association per time point, averaged over layers: (B, N)."""
    total = None
    for series, prior in zip(series_list, prior_list):
        s = series.mean(dim=1) + 1e-8
        p = prior.mean(dim=1) + 1e-8
        kl = (p * (torch.log(p) - torch.log(s))).sum(dim=-1) + (s * (torch.log(s) - torch.log(p))).sum(dim=-1)
        total = kl if total is None else total + kl
    return total / len(series_list)


def anomaly_score(reconstruction, batch_x, ass_dis):
    """AnomalyScore = Softmax(-AssDis) * ||x - x_hat||^2, averaged over the window: (B,)."""
    rec_err = ((batch_x - reconstruction) ** 2).mean(dim=-1)  # (B, N)
    weights = F.softmax(-ass_dis, dim=-1)  # (B, N)
    return (weights * rec_err).mean(dim=-1)


@torch.no_grad()
def score_windows(model, loader, device):
    model.eval()
    scores = []
    for batch_x in loader:
        batch_x = batch_x.to(device)
        recon, series, prior = model(batch_x)
        scores.append(anomaly_score(recon, batch_x, association_discrepancy(series, prior)).cpu())
    return torch.cat(scores)
