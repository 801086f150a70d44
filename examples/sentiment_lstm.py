"""MindSpore's sentiment-analysis tutorial (tutorials/application/nlp/sentiment_analysis.md,
https://www.mindspore.cn/tutorials/en/master/nlp/sentiment_analysis.html, Apache-2.0) on
tensorjit: an embedding initialised from word vectors, a 2-layer bidirectional LSTM, a
Dense head, BCEWithLogitsLoss and Adam.

The model and the training functions (RNN, forward_fn, grad_fn, train_step,
binary_accuracy) are the tutorial's with only the import lines changed. What differs: the
vocabulary, word vectors and reviews are synthetic (the tutorial downloads IMDB and GloVe):
a review is positive when it holds more "positive" than "negative" words, padded with
``<pad>`` to a fixed length; the batches come from NumPy instead of ``mindspore.dataset``;
``train_step`` is jitted.

    python examples/sentiment_lstm.py           # vocabulary 200, sequences of 24, 80 steps
    python examples/sentiment_lstm.py --small   # vocabulary 40, sequences of 8, 8 steps
"""
import sys

import numpy as np

import math
import tensorjit as ms
import tensorjit.nn as nn
import tensorjit.ops as ops
from tensorjit.common.initializer import Uniform, HeUniform

SMALL = "--small" in sys.argv


# ---- the tutorial's model and training functions (imports changed only) ------------------

class RNN(nn.Cell):
    def __init__(self, embeddings, hidden_dim, output_dim, n_layers,
                 bidirectional, pad_idx):
        super().__init__()
        vocab_size, embedding_dim = embeddings.shape
        self.embedding = nn.Embedding(vocab_size, embedding_dim, embedding_table=ms.Tensor(embeddings), padding_idx=pad_idx)
        self.rnn = nn.LSTM(embedding_dim,
                           hidden_dim,
                           num_layers=n_layers,
                           bidirectional=bidirectional,
                           batch_first=True)
        weight_init = HeUniform(math.sqrt(5))
        bias_init = Uniform(1 / math.sqrt(hidden_dim * 2))
        self.fc = nn.Dense(hidden_dim * 2, output_dim, weight_init=weight_init, bias_init=bias_init)

    def construct(self, inputs):
        embedded = self.embedding(inputs)
        _, (hidden, _) = self.rnn(embedded)
        hidden = ops.concat((hidden[-2, :, :], hidden[-1, :, :]), axis=1)
        output = self.fc(hidden)
        return output


def binary_accuracy(preds, y):
    """
    Calculate the accuracy of each batch.
    """

    # Round off the predicted value.
    rounded_preds = np.around(ops.sigmoid(preds).asnumpy())
    correct = (rounded_preds == y).astype(np.float32)
    acc = correct.sum() / len(correct)
    return acc


# ---- synthetic vocabulary, word vectors and reviews ----------------------------------------

VOCAB, EMBED, HIDDEN, LENGTH = (40, 8, 8, 8) if SMALL else (200, 16, 16, 24)
BATCH, STEPS = (8, 8) if SMALL else (32, 80)
PAD = VOCAB - 1                      # ``vocab.tokens_to_ids('<pad>')``
POSITIVE = range(1, VOCAB // 4)      # word ids that carry sentiment
NEGATIVE = range(VOCAB // 4, VOCAB // 2)


def make_embeddings(seed=0):
    """Stand-in word vectors: random rows, the <pad> row zero (as the tutorial builds it)."""
    rng = np.random.default_rng(seed)
    embeddings = rng.normal(0, 1, (VOCAB, EMBED)).astype(np.float32)
    embeddings[PAD] = 0
    return embeddings


def make_batch(rng, batch=BATCH):
    data = np.full((batch, LENGTH), PAD, np.int32)
    labels = np.zeros((batch, 1), np.float32)
    for i in range(batch):
        n = int(rng.integers(LENGTH // 2, LENGTH + 1))
        words = rng.integers(VOCAB // 2, PAD, n)          # neutral words
        k = int(rng.integers(1, max(2, n // 2)))
        positive = bool(rng.integers(0, 2))
        strong, weak = (POSITIVE, NEGATIVE) if positive else (NEGATIVE, POSITIVE)
        words[:k] = rng.choice(list(strong), k)
        words[k:k + k // 2] = rng.choice(list(weak), k // 2)
        data[i, :n] = rng.permutation(words)
        labels[i] = float(positive)
    return ms.Tensor(data), ms.Tensor(labels)


def build(seed=0):
    ms.set_seed(seed)
    model = RNN(make_embeddings(seed), HIDDEN, 1, 2, True, PAD)
    loss_fn = nn.BCEWithLogitsLoss(reduction='mean')
    optimizer = nn.Adam(model.trainable_params(), learning_rate=0.01)
    return model, loss_fn, optimizer


def make_train_step(model, loss_fn, optimizer, jit=True):
    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        return loss

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    return ms.jit(train_step) if jit else train_step


def main():
    model, loss_fn, optimizer = build()
    train_step = make_train_step(model, loss_fn, optimizer)
    model.set_train()
    rng = np.random.default_rng(1)
    losses = []
    for step in range(STEPS):
        data, label = make_batch(rng)
        losses.append(float(train_step(data, label).asnumpy()))
        if step % max(1, STEPS // 8) == 0:
            print(f"step {step}: loss {losses[-1]:.4f}")
    model.set_train(False)
    data, label = make_batch(rng, 128)
    accuracy = binary_accuracy(model(data), label.asnumpy())
    print(f"first loss {losses[0]:.4f}, last loss {np.mean(losses[-3:]):.4f}, "
          f"accuracy {accuracy:.2f}")


if __name__ == "__main__":
    main()
