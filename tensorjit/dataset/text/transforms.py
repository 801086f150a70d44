"""Text operations: tokenizers, vocabulary lookup, number parsing, windows and n-grams."""
import re

import numpy as np

from ... import dtype as dt
from .vocab import Vocab


_INT_PREFIX = re.compile(r"\s*[+-]?\d+")
_FLOAT_PREFIX = re.compile(r"\s*[+-]?(inf(inity)?|nan|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)",
                           re.IGNORECASE)


def _pipeline_error(message):
    # MindSpore reports a bad row from inside its pipeline as a RuntimeError
    return RuntimeError(f"[ERROR] {message}")


def _strings(array, who):
    array = np.asarray(array)
    if array.dtype.kind != "U":
        raise _pipeline_error(f"{who}: input is not string datatype.")
    return array


def _mindspore_name(dtype):
    name = np.dtype(dtype).name
    return "Bool" if name == "bool" else name.capitalize()


class Lookup:
    """Tokens to their ids in ``vocab``; unknown tokens to ``unknown_token``'s id."""

    def __init__(self, vocab, unknown_token=None, data_type=dt.int32):
        if not isinstance(vocab, Vocab):
            raise TypeError(f"Argument vocab with value {vocab} is not of type [Vocab], but got "
                            f"{type(vocab)}.")
        if unknown_token is not None and not isinstance(unknown_token, str):
            raise TypeError(f"Argument unknown_token with value {unknown_token} is not of type "
                            f"[<class 'str'>], but got {type(unknown_token)}.")
        self.vocab, self.unknown_token = vocab, unknown_token
        self.data_type = dt.as_dtype(data_type)

    def __call__(self, tokens):
        tokens = _strings(tokens, "Lookup")
        ids = self.vocab.vocab()
        if self.unknown_token is not None and self.unknown_token not in ids:
            raise _pipeline_error(f'Lookup: "{self.unknown_token}" doesn\'t exist in vocab.')
        out = np.empty(tokens.shape, np.int64)
        for index, token in np.ndenumerate(tokens):
            if token in ids:
                out[index] = ids[token]
            elif self.unknown_token is not None:
                out[index] = ids[self.unknown_token]
            else:
                raise _pipeline_error(f'Lookup: invalid data, token: "{token}" doesn\'t exist in '
                                      f'vocab and no unknown token is specified.')
        return out.astype(self.data_type)


class ToNumber:
    """Strings to numbers of ``data_type`` (an integer type truncates a decimal string)."""

    def __init__(self, data_type):
        self.data_type = dt.as_dtype(data_type)
        if self.data_type.kind not in "iuf":
            raise TypeError(f"data_type: {_mindspore_name(self.data_type)} is not numeric data "
                            f"type.")

    def _parse(self, text):
        # MindSpore parses like C's strtol / strtod: the longest numeric prefix after blanks
        pattern = _FLOAT_PREFIX if self.data_type.kind == "f" else _INT_PREFIX
        match = pattern.match(text)
        if not match:
            raise _pipeline_error(f'ToNumber: it is invalid to convert "{text}" to a number.')
        value = float(match.group(0)) if self.data_type.kind == "f" else int(match.group(0))
        kind = self.data_type.kind
        if kind == "f" and self.data_type != np.float16 and \
                abs(value) > float(np.finfo(self.data_type).max):   # inf too
            info = np.finfo(self.data_type)
            raise _pipeline_error(
                f"ToNumber: string input {text} will be out of bounds if cast to "
                f"{self.data_type.name}. The valid range is: [{-info.max:f}, {info.max:f}].")
        if self.data_type.kind in "iu":
            info = np.iinfo(self.data_type)
            if not info.min <= value <= info.max:
                raise _pipeline_error(
                    f"ToNumber: string input {text} will be out of bounds if cast to "
                    f"{self.data_type.name}. The valid range is: [{info.min}, {info.max}].")
        elif self.data_type == np.float16 and np.isfinite(value) and abs(value) > 65504:
            raise _pipeline_error(f"ToFloat16: value {value:f}in input data is outside of valid "
                                  f"float16 range [65504.000000, -65504.000000].")
        return value

    def __call__(self, strings):
        strings = np.asarray(strings)
        if strings.dtype.kind != "U":
            raise _pipeline_error("ToNumber: input should be string datatype.")
        values = [self._parse(s) for s in strings.reshape(-1)]
        return np.array(values, self.data_type).reshape(strings.shape)


class SlidingWindow:
    """Windows of ``width`` consecutive elements of a 1-D column (one window per row)."""

    def __init__(self, width, axis=0):
        if not isinstance(width, int) or isinstance(width, bool):
            raise TypeError(f"Argument width with value {width} is not of type [<class 'int'>], "
                            f"but got {type(width)}.")
        if not 1 <= width <= 2147483647:
            raise ValueError("Input width is not within the required interval of "
                             "[1, 2147483647].")
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"Argument axis with value {axis} is not of type [<class 'int'>], "
                            f"but got {type(axis)}.")
        self.width, self.axis = width, axis

    def __call__(self, column):
        column = np.asarray(column)
        if self.axis not in (0, -1):
            raise _pipeline_error(f"SlidingWindow: The parameter axis supports 0 or -1 only for "
                                  f"now, but got {self.axis}.")
        if column.ndim != 1:
            raise _pipeline_error(f"SlidingWindow: SlidingWindow supports 1D input only for "
                                  f"now, but got {column.ndim}D.")
        count = column.shape[0] - self.width + 1
        if count <= 0:
            return np.empty((0,), column.dtype)
        return np.stack([column[i:i + self.width] for i in range(count)])


class PythonTokenizer:
    """Split each string with a Python function returning a list of strings."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError("tokenizer is not a callable Python function.")
        self.tokenizer = tokenizer

    def __call__(self, text):
        if not isinstance(text, np.ndarray):
            raise TypeError(f"input should be a NumPy array. Got {type(text)}.")
        if text.dtype.kind != "U":
            raise TypeError(f"input should be a NumPy array of strings. Got {text.dtype}.")
        if text.ndim == 0:
            return np.array(self.tokenizer(str(text)), dtype=str)
        return np.array([self.tokenizer(str(t)) for t in text.reshape(-1)], dtype=str)


def _check_with_offsets(with_offsets):
    if not isinstance(with_offsets, bool):
        raise TypeError("Wrong input type for with_offsets, should be boolean.")
    return with_offsets


class _StringTokenizer:
    """A tokenizer of one string: tokens, with their UTF-8 byte offsets if asked."""
    name = ""

    def __init__(self, with_offsets=False):
        self.with_offsets = _check_with_offsets(with_offsets)

    def __call__(self, text):
        text = np.asarray(text)
        if text.ndim != 0 or text.dtype.kind != "U":
            raise _pipeline_error(f"{self.name}: the input shape should be scalar and the input "
                                  f"datatype should be string.")
        text = str(text)
        spans = self._spans(text) or [(0, 0)]   # MindSpore: an empty string gives ['']
        tokens = np.array([text[a:b] for a, b in spans], dtype=str)
        if not self.with_offsets:
            return tokens
        byte = np.cumsum([0] + [len(c.encode("utf-8")) for c in text])
        begins = np.array([byte[a] for a, _ in spans], np.uint32)
        ends = np.array([byte[b] for _, b in spans], np.uint32)
        return tokens, begins, ends


class WhitespaceTokenizer(_StringTokenizer):
    """Split a string on (Unicode) whitespace."""
    name = "WhitespaceTokenizerOp"

    @staticmethod
    def _spans(text):
        spans, start = [], None
        for i, char in enumerate(text + " "):
            if char.isspace():
                if start is not None:
                    spans.append((start, i))
                start = None
            elif start is None:
                start = i
        return spans


class UnicodeCharTokenizer(_StringTokenizer):
    """Split a string into its Unicode characters."""
    name = "UnicodeCharTokenizerOp"

    @staticmethod
    def _spans(text):
        return [(i, i + 1) for i in range(len(text))]


class Ngram:
    """n-grams of a 1-D string column, each joined by ``separator``, after padding."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        n = [n] if isinstance(n, int) and not isinstance(n, bool) else n
        if not isinstance(n, list) or not n or \
                not all(isinstance(k, int) and not isinstance(k, bool) for k in n):
            raise TypeError(f"Argument n with value {n} is not of type [<class 'list'>].")
        if any(k < 1 for k in n):
            raise ValueError("Input gram_0 must be greater than 0.")
        for name, pad in (("left_pad", left_pad), ("right_pad", right_pad)):
            if not (isinstance(pad, tuple) and len(pad) == 2 and isinstance(pad[0], str) and
                    isinstance(pad[1], int)):
                raise TypeError(f"{name} should be a tuple of (str, int), got {pad}.")
            if pad[1] < 0:
                raise ValueError("padding width need to be positive numbers.")
        if not isinstance(separator, str):
            raise TypeError(f"Argument separator with value {separator} is not of type "
                            f"[<class 'str'>], but got {type(separator)}.")
        self.n, self.left_pad, self.right_pad, self.separator = n, left_pad, right_pad, separator

    def __call__(self, column):
        column = np.asarray(column)
        if column.ndim != 1 or column.dtype.kind != "U":
            raise _pipeline_error("Ngram: input is not a 1D data with string datatype.")
        words = [str(w) for w in column]
        grams = []
        for k in self.n:   # each n pads by at most n - 1 (MindSpore's cap)
            padded = ([self.left_pad[0]] * min(self.left_pad[1], k - 1) + words +
                      [self.right_pad[0]] * min(self.right_pad[1], k - 1))
            grams += [self.separator.join(padded[i:i + k]) for i in range(len(padded) - k + 1)]
        return np.array(grams or [""], dtype=str)   # MindSpore: no n-gram gives ['']


class Truncate:
    """Keep the first ``max_seq_len`` elements of a 1-D or 2-D column (on its last axis)."""

    def __init__(self, max_seq_len):
        if not isinstance(max_seq_len, int) or isinstance(max_seq_len, bool):
            raise TypeError(f"Argument max_seq_len with value {max_seq_len} is not of type "
                            f"[<class 'int'>], but got {type(max_seq_len)}.")
        if not 1 <= max_seq_len <= 2147483647:
            raise ValueError("Input max_seq_len is not within the required interval of "
                             "[1, 2147483647].")
        self.max_seq_len = max_seq_len

    def __call__(self, column):
        column = np.asarray(column)
        if column.ndim not in (1, 2):
            raise _pipeline_error("Truncate: the input tensor should be of dimension 1 or 2.")
        return column[..., :self.max_seq_len]
