"""Text metrics, as MindSpore defines them: ``BleuScore`` and ``Perplexity``.

BLEU over a corpus: for n = 1..n_gram, the clipped n-gram matches (each candidate n-gram
counted at most as often as in the reference that has it most) over the candidate n-grams;
the score is the geometric mean of these precisions (``smooth``: (matches + 1) /
(n-grams + 1)) times the brevity penalty ``exp(1 - r / c)`` when the candidates' length c
does not exceed r, the summed lengths of the references closest in length to each
candidate. Any n without a match gives 0.

Perplexity: ``exp`` of the mean negative log of the probability given to each label (at
least 1e-10); labels equal to ``ignore_label`` are left out.
"""
import math
from collections import Counter

import numpy as np

from .metric_base import Metric, rearrange_inputs

__all__ = ["BleuScore", "Perplexity"]


def _ngrams(tokens, longest):
    counts = Counter()
    for n in range(1, longest + 1):
        for start in range(len(tokens) - n + 1):
            counts[tuple(tokens[start:start + n])] += 1
    return counts


class BleuScore(Metric):
    def __init__(self, n_gram=4, smooth=False):
        if isinstance(n_gram, bool) or not isinstance(n_gram, int):
            raise TypeError(f"BleuScore: 'n_gram' must be an int, got {n_gram!r}")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"BleuScore: 'n_gram' must be in [1, 4], got {n_gram}")
        if not isinstance(smooth, bool):
            raise TypeError(f"BleuScore: 'smooth' must be a bool, got {smooth!r}")
        self.n_gram, self.smooth = n_gram, smooth
        super().__init__()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c, self._r = 0.0, 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """``update(candidates, references)``: a list of token lists, and for each a list of
        reference token lists."""
        if len(inputs) != 2:
            raise ValueError(f"BleuScore.update needs 2 inputs (candidate_corpus, "
                             f"reference_corpus), got {len(inputs)}")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"BleuScore: {len(candidates)} candidates but {len(references)} "
                             f"reference lists")
        for candidate, refs in zip(candidates, references):
            self._c += len(candidate)
            lengths = [len(ref) for ref in refs]
            gaps = [abs(len(candidate) - n) for n in lengths]
            self._r += lengths[gaps.index(min(gaps))]
            counts = _ngrams(candidate, self.n_gram)
            best = Counter()
            for ref in refs:
                best |= _ngrams(ref, self.n_gram)
            for gram, hits in (counts & best).items():
                self._numerator[len(gram) - 1] += hits
            for gram, total in counts.items():
                self._denominator[len(gram) - 1] += total
        self._is_update = True

    def eval(self):
        self._check_updated(self._is_update)
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precisions = (self._numerator + 1) / (self._denominator + 1)
        else:
            precisions = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.log(precisions) / self.n_gram))
        penalty = np.array(1.0) if self._c > self._r else np.exp(1 - self._r / self._c)
        return penalty * geometric_mean


class Perplexity(Metric):
    def __init__(self, ignore_label=None):
        if ignore_label is not None and (isinstance(ignore_label, bool)
                                         or not isinstance(ignore_label, int)):
            raise TypeError(f"Perplexity: 'ignore_label' must be an int or None, got "
                            f"{ignore_label!r}")
        self.ignore_label = ignore_label
        super().__init__()

    def clear(self):
        self._sum_metric, self._num_inst = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        """``update(preds, labels)``: probabilities (..., C) and labels of the leading shape."""
        preds, labels = self._inputs(inputs, 2)
        if labels.size != preds.size / preds.shape[-1]:
            raise RuntimeError(f"Perplexity: labels {labels.shape} do not match predictions "
                               f"{preds.shape}")
        labels = labels.reshape(-1)
        picked = preds.reshape(-1, preds.shape[-1])[np.arange(labels.size),
                                                    labels.astype(np.int64)]
        count = picked.size
        if self.ignore_label is not None:
            ignored = labels == self.ignore_label
            count -= int(ignored.sum())
            picked = np.where(ignored, 1.0, picked)
        self._sum_metric -= float(np.sum(np.log(np.maximum(1e-10, picked))))
        self._num_inst += count

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("Perplexity: call update() before eval()")
        return math.exp(self._sum_metric / self._num_inst)
