"""What the fuzzer works with: the configurations, where random decisions come from
(``RandomChooser`` for the command line, ``HypothesisChooser`` for tests), and programs --
Python source written to a real file (ast capture reads it back) and imported."""
import atexit
import contextlib
import hashlib
import importlib.util
import os
import random
import shutil
import tempfile
import threading
import warnings

import numpy as np

from tensorjit import Tensor
from tensorjit import dtype as dt

MODES = ("trace", "ast", "bytecode")
LEVELS = ("O0", "O1")
BACKENDS = ("ms_backend", "GE")
CONFIGS = tuple(dict(capture_mode=m, jit_level=lv, backend=b)
                for m in MODES for lv in LEVELS for b in BACKENDS)

DTYPE_NAMES = {dt.float16: "ms.float16", dt.bfloat16: "ms.bfloat16", dt.float32: "ms.float32",
               dt.float64: "ms.float64", dt.int32: "ms.int32", dt.int64: "ms.int64",
               dt.bool_: "ms.bool_", dt.int8: "ms.int8", dt.uint8: "ms.uint8"}
NP_NAMES = {dt.float16: "np.float16", dt.float32: "np.float32", dt.float64: "np.float64",
            dt.int32: "np.int32", dt.int64: "np.int64", dt.bool_: "np.bool_"}
MAX_ELEMENTS = 2048


def config_label(config):
    return f"{config['capture_mode']}/{config['jit_level']}/{config['backend']}"


# ---------------------------------------------------------------------------------------
# choosers: where the random decisions come from

class RandomChooser:
    """Decisions from ``random.Random(seed)`` (the command line)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def integer(self, lo, hi):
        return self.rng.randint(lo, hi)

    def choice(self, options):
        return options[self.rng.randrange(len(options))]

    def chance(self, p):
        return self.rng.random() < p


class HypothesisChooser:
    """Decisions drawn from hypothesis (tests), so failures shrink to small programs: every
    decision shrinks towards the first option / ``False`` / the lower bound."""

    def __init__(self, draw):
        from hypothesis import strategies as st
        self.draw, self.st = draw, st

    def integer(self, lo, hi):
        return self.draw(self.st.integers(lo, hi))

    def choice(self, options):
        return options[self.draw(self.st.integers(0, len(options) - 1))]

    def chance(self, p):
        return self.draw(self.st.integers(0, 999)) >= 1000 - int(p * 1000)


# ---------------------------------------------------------------------------------------
# programs

class Program:
    """Source text of a module defining ``prog`` and the input sets to call it with."""

    def __init__(self, source, input_sets, kind="forward"):
        self.source = source
        self.input_sets = input_sets           # [[np.ndarray per argument], ...]
        self.kind = kind
        self._fn = None

    @property
    def fn(self):
        if self._fn is None:
            self._fn = load(self.source)
        return self._fn

    @property
    def state(self):
        """The module's Python-state hooks (``STATE_HEADER``), or None."""
        module = load_module(self.source)
        return module if hasattr(module, "_tj_state") else None

    def __repr__(self):
        sets = "\n".join(f"#   set {i}: " + ", ".join(
            f"{a.dtype}{list(a.shape)}" for a in arrays) for i, arrays in enumerate(self.input_sets))
        return f"{self.source}# input sets:\n{sets}\n"


_module_dir = None
_module_lock = threading.Lock()


def _modules_dir():
    global _module_dir
    with _module_lock:
        if _module_dir is None:
            _module_dir = tempfile.mkdtemp(prefix="tensorjit_fuzz_")
            atexit.register(shutil.rmtree, _module_dir, True)
    return _module_dir


_modules = {}


def load_module(source):
    """Import ``source`` from a real file (ast capture reads the source back), once."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:16]
    with _module_lock:
        module = _modules.get(digest)
    if module is not None:
        return module
    module_name = f"tj_fuzz_{digest}"
    path = os.path.join(_modules_dir(), module_name + ".py")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(source)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with _module_lock:
        if len(_modules) > 4096:
            _modules.clear()
        return _modules.setdefault(digest, module)


def load(source, name="prog"):
    """The function ``name`` of ``source``'s module."""
    return getattr(load_module(source), name)


HEADER = ("import numpy as np\n"
          "import tensorjit as ms\n"
          "from tensorjit import Tensor, ops\n\n\n")

# Python state a program may read and change (issue 17): globals rebound between calls
# (``_tj_step``), a list the program appends to, an object whose attributes it reads and
# writes, a dict it reads and writes, a helper whose closure variable ``_tj_step`` rebinds,
# a recursive helper. The checker resets it before each run and compares ``_tj_state()``
# after each call with eager's.
STATE_HEADER = """SCALE = 1.5
OFFSET = 1
LOG = []


class _TjConfig:
    pass


CFG = _TjConfig()
TABLE = {"n": 0, "bias": 1.0}


def _tj_closure():
    k = 2.0

    def scale(t):
        return t * k

    def set_k(value):
        nonlocal k
        k = value
    return scale, set_k


_tj_scale, _tj_set_k = _tj_closure()


def _tj_rec(t, n):
    return t if n == 0 else _tj_rec(t * 0.5 + 1.0, n - 1)


def _tj_reset():
    global SCALE, OFFSET
    SCALE, OFFSET = 1.5, 1
    LOG.clear()
    CFG.scale, CFG.calls = 0.5, 0
    TABLE.clear()
    TABLE.update(n=0, bias=1.0)
    _tj_set_k(2.0)


def _tj_step(n):
    global SCALE, OFFSET
    SCALE = (1.5, 1.5, -0.5, 2.0)[n % 4]
    OFFSET = 1 if n < 5 else 3
    CFG.scale = (0.5, 0.5, 2.0)[n % 3]
    TABLE["bias"] = (1.0, -1.0, -1.0, 3.0)[n % 4]
    _tj_set_k((2.0, 2.0, 0.25)[n % 3])


def _tj_state():
    return SCALE, OFFSET, list(LOG), CFG.scale, CFG.calls, dict(TABLE)


def _tj_restore(state):
    global SCALE, OFFSET
    SCALE, OFFSET, LOG[:] = state[0], state[1], state[2]
    CFG.scale, CFG.calls = state[3], state[4]
    TABLE.clear()
    TABLE.update(state[5])


"""


def _quiet():
    stack = contextlib.ExitStack()
    stack.enter_context(np.errstate(all="ignore"))
    stack.enter_context(warnings.catch_warnings())
    warnings.simplefilter("ignore")
    return stack


def _broadcastable(small, big):
    if len(small) > len(big):
        return False
    return all(s == 1 or s == b for s, b in zip(small[::-1], big[::-1]))


def _runs(fn, arrays):
    try:
        with _quiet():
            fn(*[Tensor(a) for a in arrays])
        return True
    except Exception:
        return False
