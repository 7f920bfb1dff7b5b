from torch.utils.data import DataLoader

from dataset import Collator
from model import Classifier


def fit(ds, vocab):
    model = Classifier(vocab)
    loader = DataLoader(ds, batch_size=32, shuffle=True, collate_fn=Collator(pad_id=0))
    for ids, mask in loader:
        model(ids, mask).sum().backward()
