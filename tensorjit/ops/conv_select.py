"""Which algorithm runs a convolution of a given shape, measured on this machine.

Each of the three convolution primitives (forward, input gradient, weight gradient) has
several algorithms in ``conv_kernels.py``: plain products for 1x1 kernels, Winograd
F(4x4, 3x3) and F(2x2, 3x3) for 3x3 stride-1 ones (``winograd4.py``, ``winograd.py``),
shifted GEMMs over the padded channels-last grid for stride 1, weight-major products over
a Numba NCHW im2col, and a channels-last im2col for everything. Which is fastest depends on
the shape, the CPU and its BLAS, so the first call of each shape times the algorithms that
apply on the call's own operands (``tuning``), and the table keeps the answer for every
later process; Winograd's chunk of images is chosen the same way, after the algorithm.

Until the Numba kernels have compiled (in the background, on first use) and for problems
too small to be worth timing, a built-in rule picks (``_rule_*``): the choice made on the
development machine, kept only as that fallback. ``TENSORJIT_CONV`` (every primitive) or
``TENSORJIT_CONV_FORWARD`` / ``_INPUT_GRAD`` / ``_WEIGHT_GRAD`` name an algorithm to use
wherever it applies; ``TENSORJIT_WINOGRAD_CHUNK`` a chunk size.
"""
import numpy as np

from . import blas, conv_kernels as kernels, thread_pool, tuning, winograd, winograd4

BLAS_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
ALGORITHMS = ("pointwise", "winograd4", "winograd2", "shifted", "weight_major", "im2col")
CHUNKS = {"2MB": 2 << 20, "8MB": 8 << 20, "32MB": 32 << 20}
# below this many multiply-adds a convolution takes microseconds: timing its algorithms
# would cost more than any choice could save
MIN_TUNED_MACS = 4 << 20

FORWARD = tuning.Choice("conv.forward", ALGORITHMS,
                        env=("TENSORJIT_CONV_FORWARD", "TENSORJIT_CONV"),
                        doc="the algorithm of a convolution's forward, per shape")
INPUT_GRAD = tuning.Choice("conv.input_grad", ALGORITHMS,
                           env=("TENSORJIT_CONV_INPUT_GRAD", "TENSORJIT_CONV"),
                           doc="the algorithm of a convolution's input gradient, per shape")
WEIGHT_GRAD = tuning.Choice("conv.weight_grad", ALGORITHMS,
                            env=("TENSORJIT_CONV_WEIGHT_GRAD", "TENSORJIT_CONV"),
                            doc="the algorithm of a convolution's weight gradient, per shape")
CHUNK = tuning.Choice("conv.winograd_chunk", tuple(CHUNKS),
                      env=("TENSORJIT_WINOGRAD_CHUNK",),
                      doc="the images per Winograd chunk (bytes of transformed input)")
CHOICES = (FORWARD, INPUT_GRAD, WEIGHT_GRAD, CHUNK)

_WINOGRAD = {"winograd4": winograd4, "winograd2": winograd}
_RUNNERS = {   # primitive -> algorithm -> the kernel, or a factory of it taking a chunk size
    "forward": {"pointwise": kernels.pointwise_forward, "winograd4": kernels.winograd_forward,
                "winograd2": kernels.winograd_forward, "shifted": kernels.shifted_forward,
                "weight_major": kernels.weight_major_forward,
                "im2col": kernels.im2col_forward},
    "input_grad": {"pointwise": kernels.pointwise_input_grad,
                   "winograd4": kernels.winograd_input_grad,
                   "winograd2": kernels.winograd_input_grad,
                   "shifted": kernels.shifted_input_grad,
                   "weight_major": kernels.weight_major_input_grad,
                   "im2col": kernels.im2col_input_grad},
    "weight_grad": {"pointwise": kernels.pointwise_weight_grad,
                    "winograd4": kernels.winograd_weight_grad,
                    "winograd2": kernels.winograd_weight_grad,
                    "shifted": kernels.shifted_weight_grad,
                    "weight_major": kernels.weight_major_weight_grad,
                    "im2col": kernels.im2col_weight_grad},
}


def fast_path(x, w, groups):
    """Whether these kernels run the convolution (else conv.py's general NCHW path)."""
    return groups == 1 and x.dtype in BLAS_DTYPES and x.dtype == w.dtype


def forward(x, w, stride, padding, dilation):
    geometry = Geometry(x.shape, w.shape, stride, padding, dilation, x.dtype)
    run = _pick("forward", FORWARD, geometry, lambda f: lambda: f(x, w, stride, padding,
                                                                   dilation))
    return run(x, w, stride, padding, dilation)


def input_grad(dy, w, x_shape, stride, padding, dilation):
    geometry = Geometry(x_shape, w.shape, stride, padding, dilation, dy.dtype)
    run = _pick("input_grad", INPUT_GRAD, geometry,
                lambda f: lambda: f(dy, w, x_shape, stride, padding, dilation))
    return run(dy, w, x_shape, stride, padding, dilation)


def weight_grad(x, dy, w_shape, stride, padding, dilation):
    geometry = Geometry(x.shape, w_shape, stride, padding, dilation, x.dtype)
    run = _pick("weight_grad", WEIGHT_GRAD, geometry,
                lambda f: lambda: f(x, dy, w_shape, stride, padding, dilation))
    return run(x, dy, w_shape, stride, padding, dilation)


class Geometry:
    """A convolution's shapes, and the facts the choice needs about them."""

    def __init__(self, x_shape, w_shape, stride, padding, dilation, dtype):
        self.x_shape, self.w_shape = tuple(x_shape), tuple(w_shape)
        self.stride, self.padding, self.dilation = stride, padding, dilation
        self.dtype = np.dtype(dtype)
        self.kernel = self.w_shape[2:]
        self.out_hw = kernels.out_hw(self.x_shape, self.kernel, stride, padding, dilation)
        self.full = kernels.full_padding(self.kernel, padding, dilation)

    @property
    def macs(self):
        n, o, (oh, ow) = self.x_shape[0], self.w_shape[0], self.out_hw
        return n * o * oh * ow * int(np.prod(self.w_shape[1:]))

    def key(self):
        n, c, h, w = self.x_shape
        o, _, kh, kw = self.w_shape
        return (f"{blas.library_name(self.dtype)} {self.dtype.name} x{n}x{c}x{h}x{w} "
                f"w{o}x{c}x{kh}x{kw} s{self.stride[0]}x{self.stride[1]} "
                f"p{','.join(map(str, self.padding))} "
                f"d{self.dilation[0]}x{self.dilation[1]}")

    def applies(self, primitive, algorithm):
        """Whether ``algorithm`` computes ``primitive`` for this shape, compiled or not."""
        pointwise = self.kernel == (1, 1) and not any(self.padding)
        if algorithm == "pointwise" or pointwise:
            return algorithm == "pointwise" and pointwise
        stride_1 = self.stride == (1, 1)
        if algorithm in _WINOGRAD:
            return (self.kernel == (3, 3) and stride_1 and self.dilation == (1, 1)
                    and (primitive != "input_grad" or min(self.full) >= 0))
        if algorithm == "shifted":
            return stride_1 and (primitive != "input_grad" or min(self.full) >= 0)
        return algorithm in ("weight_major", "im2col")


def _needs_numba(algorithm):
    return algorithm in ("winograd4", "winograd2", "weight_major")


def _pick(primitive, choice, geometry, bind):
    """The kernel to run: the measured choice (timing ``bind(kernel)`` runners on the
    call's operands), or the built-in rule when the choice cannot be measured yet."""
    applicable = [a for a in ALGORITHMS if geometry.applies(primitive, a)]
    ready = winograd.ready(geometry.dtype)        # starts the background compile
    compiled = [a for a in applicable if ready or not _needs_numba(a)]
    settled = ready or not winograd.available()   # every applicable kernel can run now
    if not settled or geometry.macs < MIN_TUNED_MACS or not thread_pool.usable():
        forced = choice.override()
        name = forced[1] if forced and forced[1] in compiled else _RULES[primitive](
            geometry, ready)
        return _kernel(primitive, name, None)
    name = choice(geometry.key(), compiled, lambda names: tuning.timing.alternate(
        {n: bind(_kernel(primitive, n, None)) for n in names}),
        default=_RULES[primitive](geometry, ready))
    chunk = None
    if name in _WINOGRAD:
        chunk = _chunk(primitive, name, geometry, bind)
    return _kernel(primitive, name, chunk)


def _kernel(primitive, name, chunk):
    runner = _RUNNERS[primitive][name]
    if name in _WINOGRAD:
        return runner(_WINOGRAD[name], chunk)
    return runner


def _chunk(primitive, name, geometry, bind):
    """The chunk size for Winograd ``name``: the one set by the environment, else among the
    sizes that chunk this batch differently, the fastest (None: the module's default)."""
    forced = CHUNK.override()
    if forced:
        return CHUNKS[forced[1]]
    n, c = geometry.x_shape[:2]
    oh, ow = geometry.x_shape[2:] if primitive == "input_grad" else geometry.out_hw
    per_image = _WINOGRAD[name].per_image_bytes(max(c, geometry.w_shape[0]), oh, ow,
                                               geometry.dtype.itemsize)
    sizes = {}
    for label, size in CHUNKS.items():       # one size per distinct chunking of the batch
        sizes.setdefault(len(winograd.image_chunks(n, per_image, size)), label)
    candidates = list(sizes.values())
    if len(candidates) < 2:
        return None
    usual = sizes.get(len(winograd.image_chunks(n, per_image, winograd.CHUNK_BYTES)))
    label = CHUNK(f"{primitive} {name} {geometry.key()}", candidates,
                  lambda labels: tuning.timing.alternate(
                      {lb: bind(_kernel(primitive, name, CHUNKS[lb])) for lb in labels}),
                  default=usual or candidates[0])
    return CHUNKS[label]


# ---------------------------------------------------------------------------------------
# the built-in rule: the development machine's choices (Intel Xeon, MKL), used before the
# kernels have compiled, when tuning is off and for tiny problems

MAX_GRID_WASTE = 1.3          # shifted GEMMs while the padded grid wastes at most this
MIN_SHIFT_CHANNELS = 16       # fewer input channels: im2col (the RGB stem)
WINOGRAD_MIN_PIXELS = 4 * 4   # outputs per image from which Winograd is taken ...
WINOGRAD_MIN_PIXELS_INPUT_GRAD = 8 * 8   # ... and for the input gradient


def _rule_shifted(g, x_shape, padding):
    n, c, h, w = x_shape
    if g.stride != (1, 1) or c < MIN_SHIFT_CHANNELS or min(padding) < 0:
        return False
    hp, wp = h + padding[0] + padding[1], w + padding[2] + padding[3]
    kh, kw = g.kernel
    oh, ow = hp - g.dilation[0] * (kh - 1), wp - g.dilation[1] * (kw - 1)
    return hp * wp <= MAX_GRID_WASTE * oh * ow


def _rule_winograd(g, ready, channels, pixels, least):
    return (ready and g.applies("forward", "winograd2") and channels >= MIN_SHIFT_CHANNELS
            and pixels >= least)


def _rule_forward(g, ready):
    if g.applies("forward", "pointwise"):
        return "pointwise"
    if _rule_winograd(g, ready, g.x_shape[1], g.out_hw[0] * g.out_hw[1], WINOGRAD_MIN_PIXELS):
        return "winograd2"
    if _rule_shifted(g, g.x_shape, g.padding):
        return "shifted"
    return "weight_major" if ready else "im2col"


def _rule_input_grad(g, ready):
    if g.applies("input_grad", "pointwise"):
        return "pointwise"
    n, o = g.x_shape[0], g.w_shape[0]
    dy_shape = (n, o) + g.out_hw
    if min(g.full) >= 0 and _rule_winograd(g, ready, o, g.x_shape[2] * g.x_shape[3],
                                           WINOGRAD_MIN_PIXELS_INPUT_GRAD):
        return "winograd2"
    if _rule_shifted(g, dy_shape, g.full):
        return "shifted"
    return "weight_major" if ready else "im2col"


# the weight gradient took what the forward of the same shape took
_RULES = {"forward": _rule_forward, "input_grad": _rule_input_grad,
          "weight_grad": _rule_forward}
