"""``Vocab``: the token <-> id table that ``Lookup`` uses."""

_MAX_ID = 2147483647


def _check_type(name, value, kinds):
    if not isinstance(value, kinds):
        kinds = kinds if isinstance(kinds, tuple) else (kinds,)
        raise TypeError(f"Argument {name} with value {value} is not of type {list(kinds)}, but "
                        f"got {type(value)}.")


class Vocab:
    """A vocabulary: ``from_list`` / ``from_dict`` build one (MindSpore's constructors)."""

    def __init__(self):
        self._ids = {}

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids in list order; ``special_tokens`` before the words (or after them)."""
        _check_type("word_list", word_list, list)
        if len(set(word_list)) != len(word_list):
            duplicate = next(w for i, w in enumerate(word_list) if w in word_list[:i])
            raise ValueError(f"word_list contains duplicate word: {duplicate}.")
        special_tokens = [] if special_tokens is None else special_tokens
        _check_type("special_tokens", special_tokens, list)
        if len(set(special_tokens)) != len(special_tokens):
            raise ValueError("special_tokens contains duplicate word.")
        both = set(word_list) & set(special_tokens)
        if both:
            raise ValueError(f"special_tokens and word_list contain duplicate word :{both}.")
        _check_type("special_first", special_first, bool)
        for word in word_list + special_tokens:
            _check_type("word", word, str)
        words = special_tokens + word_list if special_first else word_list + special_tokens
        vocab = cls()
        vocab._ids = {word: index for index, word in enumerate(words)}
        return vocab

    @classmethod
    def from_dict(cls, word_dict):
        """The given token -> id pairs (ids in [0, 2**31 - 1])."""
        _check_type("word_dict", word_dict, dict)
        for word, index in word_dict.items():
            _check_type("word", word, str)
            _check_type("word_id", index, int)
            if not 0 <= index <= _MAX_ID:
                raise ValueError(f"Input word_id is not within the required interval of "
                                 f"[0, {_MAX_ID}].")
        vocab = cls()
        vocab._ids = dict(word_dict)
        return vocab

    def vocab(self):
        """The token -> id dictionary."""
        return dict(self._ids)

    def tokens_to_ids(self, tokens):
        """Id of each token, -1 for a token not in the vocabulary."""
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        return [self._ids.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids):
        """Token of each id, '' for an id not in the vocabulary."""
        by_id = {index: word for word, index in self._ids.items()}
        if isinstance(ids, int):
            return by_id.get(ids, "")
        return [by_id.get(i, "") for i in ids]
