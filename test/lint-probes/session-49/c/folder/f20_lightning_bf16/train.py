import lightning as L
from module import Lit

trainer = L.Trainer(precision="bf16-mixed", max_epochs=3)
trainer.fit(Lit())
