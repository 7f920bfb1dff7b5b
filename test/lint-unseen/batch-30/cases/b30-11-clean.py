# case: b30-11-clean
# modelled-on: mskcc/mimsi https://github.com/mskcc/mimsi/commit/43d63b0ee840fe96933075ccac13494a098000b2
# label: correct
# class: clean
# pattern: a multiple-instance model that calls microsatellite instability from sequencing reads: every microsatellite locus of a sample is one instance, a small ResNet-style conv stack and two Linear layers turn the N instances into I (N x num_features); with attention pooling on, attn = Linear(num_features, 128), Tanh, Linear(128, batch_size) scores each instance, A is transposed to (batch_size, N) with torch.transpose(A, 1, 0), normalised with nn.functional.softmax(A, dim=1), and the sample embedding is torch.mm(A, I)
# why: correct: this is the attention-based MIL pooling of Ilse et al. (2018): after the transpose A is (1, N), so dim=1 is the instance axis and each sample's instance weights sum to 1, as the code's comment says; torch.mm(A, I) then sums the instances with those weights; the scores come from an MLP (additive attention), which has no 1/sqrt(d) scale, and the transpose only moves the one score column into a row
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/mskcc/mimsi https://github.com/mskcc/mimsi/commit/43d63b0ee840fe96933075ccac13494a098000b2 model/mi_msi_model.py
import torch
import torch.nn as nn


class MSIModel(nn.Module):
    def __init__(self, coverage=100, use_attention=False):
        super(MSIModel, self).__init__()
        self.num_features = 512
        self.batch_size = 1
        self.coverage = coverage
        self.use_attention = use_attention

        # Input is N x (3 x 100 x 40)
        self.conv1 = nn.Sequential(
            nn.Conv2d(3, 32, kernel_size=3, padding=1),  # 32 x 100 x 40
            nn.ReLU(),
            nn.MaxPool2d(2, stride=2),  # 32 x 50 x 20
        )

        self.conv2_1 = nn.Sequential(
            nn.Conv2d(32, 32, kernel_size=3, padding=1),  # 32 x 50 x 20
            nn.ReLU(),
            nn.Conv2d(32, 32, kernel_size=3, padding=1),  # 32 x 50 x 20
        )

        self.downsample = nn.Sequential(
            nn.Conv2d(32, 64, kernel_size=1, stride=2)  # 64 x 25 x 10
        )

        self.conv3_1 = nn.Sequential(
            nn.Conv2d(32, 64, kernel_size=3, padding=1, stride=2),  # 64 x 25 x 10
            nn.ReLU(),
            nn.Conv2d(64, 64, kernel_size=3, padding=1),  # 64 x 25 x 10
        )

        # instance-level feature embeddings: N x num_features
        self.feature_extractor_part2 = nn.Sequential(
            nn.Linear(64 * int(self.coverage / 2) * 10, self.num_features),
            nn.ReLU(),
            nn.Linear(self.num_features, self.num_features),
            nn.ReLU(),
        )

        # Adding attention pooling if it's enabled
        if self.use_attention:
            self.attn = nn.Sequential(
                nn.Linear(self.num_features, 128),
                nn.Tanh(),
                nn.Linear(128, self.batch_size)
            )

        self.classifier = nn.Sequential(
            nn.Linear(self.num_features * self.batch_size, 1), nn.Sigmoid()
        )

        self.relu = nn.ReLU()

    def forward(self, x):
        x = x.squeeze(0)
        out_1 = self.conv1(x)

        res_1 = out_1
        out_2_1 = self.conv2_1(out_1)
        out_2_1 = self.relu(out_2_1 + res_1)

        res_3 = self.downsample(out_2_1)
        out_3_1 = self.conv3_1(out_2_1)
        final_instance_embed = self.relu(out_3_1 + res_3)

        final_instance_embed = final_instance_embed.reshape(
            -1, 64 * int(self.coverage / 2) * 10
        )
        I = self.feature_extractor_part2(final_instance_embed)  # N x num_features

        # S is the sample-level embedding, which is the aggregation (via either attention pooling
        # or average pooling) of each microsatellite instance vector
        if self.use_attention:

            # attention pooling, calculate attention scores and apply them,
            # using softmax to ensure the scores all sum to 1
            A = self.attn(I)
            A = torch.transpose(A, 1, 0)
            A = nn.functional.softmax(A, dim=1)

            S = torch.mm(A, I)

        else:
            S = torch.mean(I, 0)

        Y_prob = self.classifier(S)

        # We do a simple threshold at .5 to get our final label
        Y_hat = torch.ge(Y_prob, 0.5).float()

        return Y_prob, Y_hat
