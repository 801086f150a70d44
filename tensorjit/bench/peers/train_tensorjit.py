"""tensorjit's training rows: ``bench/models.py``'s network and train step, eager or under
``jit`` (O0, O1 or GE), starting from the weights and batches the parent wrote."""
import numpy as np

import train_data


def build(workload, variant, request):
    import tensorjit as ms
    from tensorjit.bench.models import make_model
    params, batches = train_data.load(request["data"])
    model = make_model(workload, request["size"], seed=request.get("seed", 0))
    trainable = model.optimizer.parameters
    if [p.name for p in trainable] != [name for name, _ in params]:
        raise KeyError("the weights file does not match bench.models' parameters")
    for p, (_, value) in zip(trainable, params):
        p.set_data(ms.Tensor(value))
    step = model.step
    if variant != "eager":
        options = {"backend": "GE"} if variant == "GE" else {"jit_level": variant}
        step = ms.jit(step, capture_mode=request.get("capture_mode", "ast"), **options)
    batches = [(ms.Tensor(x), ms.Tensor(y)) for x, y in batches]
    return train_data.cycle(step, batches), lambda loss: float(np.asarray(loss.asnumpy())), \
        None


def settle():
    """Wait for O1's kernels compiling in the background (tiered compilation): the first
    steps above ran while they compiled; the per-step figures are of native kernels."""
    from tensorjit.backend.numba import background
    background.wait(600)
