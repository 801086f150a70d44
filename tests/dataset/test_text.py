"""dataset.text against MindSpore 2.10 (expected values and messages from its eager calls)."""
import numpy as np
import pytest

import tensorjit as tj
from tensorjit import dataset as ds
from tensorjit.dataset import text


def test_vocab_from_list_and_dict():
    vocab = text.Vocab.from_list(["a", "b", "c"], special_tokens=["<pad>", "<unk>"])
    assert vocab.vocab() == {"<pad>": 0, "<unk>": 1, "a": 2, "b": 3, "c": 4}
    assert text.Vocab.from_list(["a", "b"], ["<unk>"], False).vocab() == \
        {"a": 0, "b": 1, "<unk>": 2}
    assert vocab.tokens_to_ids(["a", "zz"]) == [2, -1] and vocab.tokens_to_ids("a") == 2
    assert vocab.ids_to_tokens([0, 2, 9]) == ["<pad>", "a", ""]
    assert vocab.ids_to_tokens(1) == "<unk>"
    assert text.Vocab.from_dict({"x": 3, "y": 7}).vocab() == {"x": 3, "y": 7}
    with pytest.raises(ValueError, match="duplicate word: a"):
        text.Vocab.from_list(["a", "a"])
    with pytest.raises(ValueError, match="contain duplicate word"):
        text.Vocab.from_list(["a"], ["a"])
    with pytest.raises(TypeError, match="word_list"):
        text.Vocab.from_list("abc")
    with pytest.raises(ValueError, match="required interval"):
        text.Vocab.from_dict({"x": -1})
    with pytest.raises(TypeError, match="word_id"):
        text.Vocab.from_dict({"x": "y"})


def test_lookup():
    vocab = text.Vocab.from_list(["a", "b", "c"], special_tokens=["<pad>", "<unk>"])
    out = text.Lookup(vocab, "<unk>")(np.array([["a", "c"], ["q", "b"]]))
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [[2, 4], [1, 3]])
    assert text.Lookup(vocab, "<unk>")(np.array("b")).shape == ()
    assert text.Lookup(vocab, "<unk>", data_type=tj.float32)(np.array(["a"])).dtype == np.float32
    with pytest.raises(RuntimeError, match="doesn't exist in vocab and no unknown token"):
        text.Lookup(vocab)(np.array(["q"]))
    with pytest.raises(RuntimeError, match='"zzz" doesn\'t exist in vocab'):
        text.Lookup(vocab, "zzz")(np.array(["q"]))
    with pytest.raises(RuntimeError, match="not string datatype"):
        text.Lookup(vocab, "<unk>")(np.array([1]))


def test_to_number():
    np.testing.assert_array_equal(text.ToNumber(tj.int32)(np.array(["1", "-2", "3"])),
                                  np.array([1, -2, 3], np.int32))
    # C parsing of MindSpore: the numeric prefix ("1.5" -> 1, "0x10" -> 0, "1e3" -> 1)
    np.testing.assert_array_equal(
        text.ToNumber(tj.int32)(np.array([["1.5", "0x10"], ["1e3", " 12"]])), [[1, 0], [1, 12]])
    out = text.ToNumber(tj.float32)(np.array(["1.5", "2"]))
    assert out.dtype == np.float32 and list(out) == [1.5, 2.0]
    with pytest.raises(RuntimeError, match=r"out of bounds if cast to int8. The valid range is: "
                                           r"\[-128, 127\]"):
        text.ToNumber(tj.int8)(np.array(["300"]))
    with pytest.raises(RuntimeError, match=r"out of bounds if cast to uint8"):
        text.ToNumber(tj.uint8)(np.array(["-1"]))
    with pytest.raises(RuntimeError, match='invalid to convert "a" to a number'):
        text.ToNumber(tj.int32)(np.array(["a"]))
    with pytest.raises(RuntimeError, match="out of bounds if cast to float64"):
        text.ToNumber(tj.float64)(np.array(["inf"]))
    with pytest.raises(RuntimeError, match="outside of valid float16 range"):
        text.ToNumber(tj.float16)(np.array(["1e10"]))
    with pytest.raises(RuntimeError, match="input should be string datatype"):
        text.ToNumber(tj.int32)(np.array([1]))
    with pytest.raises(TypeError, match="Bool is not numeric data type"):
        text.ToNumber(tj.bool_)


def test_sliding_window_ngram_truncate():
    np.testing.assert_array_equal(text.SlidingWindow(3, 0)(np.array([1, 2, 3, 4, 5])),
                                  [[1, 2, 3], [2, 3, 4], [3, 4, 5]])
    np.testing.assert_array_equal(text.SlidingWindow(2)(np.array(["a", "b", "c"])),
                                  [["a", "b"], ["b", "c"]])
    assert text.SlidingWindow(9)(np.array([1, 2, 3])).shape == (0,)
    with pytest.raises(RuntimeError, match="supports 1D input only for now, but got 2D"):
        text.SlidingWindow(2, -1)(np.array([[1, 2], [3, 4]]))
    with pytest.raises(RuntimeError, match="axis supports 0 or -1 only"):
        text.SlidingWindow(2, 1)(np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="Input width is not within"):
        text.SlidingWindow(0)
    words = np.array(["a", "b", "c"])
    assert list(text.Ngram([1, 2, 5], ("<", 1), (">", 2))(words)) == \
        ["a", "b", "c", "< a", "a b", "b c", "c >", "< a b c >", "a b c > >"]
    assert list(text.Ngram([1, 3], ("_", 2), ("-", 1), "+")(words[:2])) == \
        ["a", "b", "_+_+a", "_+a+b", "a+b+-"]
    assert list(text.Ngram(4)(words[:2])) == [""]
    with pytest.raises(ValueError, match="gram_0 must be greater than 0"):
        text.Ngram(0)
    with pytest.raises(ValueError, match="padding width need to be positive"):
        text.Ngram(2, ("a", -1))
    np.testing.assert_array_equal(text.Truncate(1)(np.array([[1, 2], [3, 4]])), [[1], [3]])
    with pytest.raises(RuntimeError, match="dimension 1 or 2"):
        text.Truncate(1)(np.zeros((1, 1, 2)))


def test_tokenizers():
    assert list(text.WhitespaceTokenizer()("  hello  world\tfoo\n")) == ["hello", "world", "foo"]
    assert list(text.WhitespaceTokenizer()("a\u00a0b\u3000c")) == ["a", "b", "c"]
    assert list(text.WhitespaceTokenizer()("")) == [""]
    tokens, begins, ends = text.WhitespaceTokenizer(True)(" \u00fc x  y")
    assert list(tokens) == ["\u00fc", "x", "y"] and begins.dtype == np.uint32
    assert list(begins) == [1, 4, 7] and list(ends) == [3, 5, 8]   # UTF-8 byte offsets
    tokens, begins, ends = text.UnicodeCharTokenizer(True)("h\u00e9y")
    assert list(tokens) == ["h", "\u00e9", "y"] and list(begins) == [0, 1, 3] and \
        list(ends) == [1, 3, 4]
    with pytest.raises(RuntimeError, match="input shape should be scalar"):
        text.WhitespaceTokenizer()(np.array(["a b", "c"]))
    with pytest.raises(TypeError, match="with_offsets, should be boolean"):
        text.WhitespaceTokenizer(1)
    assert list(text.PythonTokenizer(lambda s: s.split(","))(np.array("a,b,c"))) == \
        ["a", "b", "c"]
    with pytest.raises(TypeError, match="input should be a NumPy array"):
        text.PythonTokenizer(str.split)("a b")
    with pytest.raises(TypeError, match="not a callable"):
        text.PythonTokenizer(3)


def test_text_pipeline():
    rows = [(np.array("hello world"),), (np.array("a b c"),)]
    vocab = text.Vocab.from_list(["hello", "world", "a", "b"], ["<unk>"])
    data = ds.GeneratorDataset(lambda: iter(rows), ["t"])
    data = data.map(text.WhitespaceTokenizer(), "t").map(text.Lookup(vocab, "<unk>"), "t")
    got = [row[0].tolist() for row in data.create_tuple_iterator(output_numpy=True)]
    assert got == [[1, 2], [3, 4, 0]]
