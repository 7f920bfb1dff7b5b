import logging

import torch
from torch import nn
from torch.utils.data import DataLoader
from transformers import AutoTokenizer

from codeclf.data import LanguageFolders
from codeclf.model import CodeLanguageClassifier

log = logging.getLogger(__name__)


def fit(model, loader, epochs, lr, device):
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for epoch in range(epochs):
        running = 0.0
        for batch in loader:
            opt.zero_grad()
            logits = model(batch["input_ids"].to(device), batch["attention_mask"].to(device))
            loss = loss_fn(logits, batch["label"].to(device))
            loss.backward()
            opt.step()
            running += loss.item()
        log.info("epoch %d loss %.4f", epoch + 1, running / len(loader))


def main(root):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tok = AutoTokenizer.from_pretrained("microsoft/codebert-base")
    data = LanguageFolders(root, tok)
    model = CodeLanguageClassifier(tok.vocab_size, dim=128, heads=4, layers=2, n_classes=data.num_classes)
    fit(model.to(device), DataLoader(data, batch_size=12, shuffle=True), epochs=10, lr=4e-5, device=device)
    torch.save(model.state_dict(), root.rstrip("/") + ".pt")
