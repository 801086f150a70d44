"""mint.linalg, mint.special, mint.optim's state and mint.distributed (a world of one
process), and the name lists: MindSpore 2.10's mint names all exist here."""
import json
import os

import numpy as np
import pytest
torch = pytest.importorskip("torch")  # the reference; CPythons without it skip

import tensorjit as ms
from tensorjit import mint

from reference import check, compare

rng = np.random.default_rng(5)
A = rng.standard_normal((4, 3)).astype(np.float32)
S = (rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)).astype(np.float32)
NAMES = "/tmp/ms_new_ns.json"


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 5), (2, 4, 3)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_against_torch(shape, mode):
    a = rng.standard_normal(shape).astype(np.float64)
    q, r = mint.linalg.qr(ms.Tensor(a), mode)
    tq, tr = torch.linalg.qr(torch.tensor(a), mode)
    compare((q, r), (tq, tr), rtol=1e-9, atol=1e-10)


def test_linalg_against_torch():
    check(mint.linalg.inv, torch.linalg.inv, S, rtol=1e-4, atol=1e-5)
    for ord in (2, 1, float("inf"), -float("inf"), 0, 3.5):
        check(lambda x: mint.linalg.vector_norm(x, ord, dim=1),
              lambda x: torch.linalg.vector_norm(x, ord, dim=1), A, rtol=1e-5)
    for ord in ("fro", "nuc", 2, -2, 1, -1, float("inf"), -float("inf")):
        check(lambda x: mint.linalg.matrix_norm(x, ord, keepdim=True),
              lambda x: torch.linalg.matrix_norm(x, ord, keepdim=True), S, rtol=1e-5)
    check(mint.linalg.norm, torch.linalg.norm, A, rtol=1e-5)
    check(lambda x: mint.linalg.norm(x, 1), lambda x: torch.linalg.norm(x, 1), A, rtol=1e-5)
    check(lambda x: mint.linalg.norm(x, dim=0), lambda x: torch.linalg.norm(x, dim=0), A)
    with pytest.raises(ValueError, match="ord"):
        mint.linalg.matrix_norm(ms.Tensor(S), 3)


def test_qr_gradient_against_torch():
    a = rng.standard_normal((4, 3))
    weights = rng.standard_normal((4, 3)), rng.standard_normal((3, 3))

    def ours(x):
        q, r = mint.linalg.qr(x)
        return mint.sum(q * ms.Tensor(weights[0])) + mint.sum(r * ms.Tensor(weights[1]))

    grad = ms.grad(ours)(ms.Tensor(a))
    leaf = torch.tensor(a, requires_grad=True)
    q, r = torch.linalg.qr(leaf)
    ((q * torch.tensor(weights[0])).sum() + (r * torch.tensor(weights[1])).sum()).backward()
    compare(grad, leaf.grad, rtol=1e-6, atol=1e-8)


def test_special_against_torch():
    x = rng.standard_normal(5).astype(np.float32)
    for name in mint.special.__all__:
        if name == "log_softmax":
            check(lambda t: mint.special.log_softmax(t, 0),
                  lambda t: torch.special.log_softmax(t, 0), x)
        elif name == "log1p":
            check(mint.special.log1p, torch.special.log1p, np.abs(x))
        else:
            check(getattr(mint.special, name), getattr(torch.special, name), x, rtol=1e-5,
                  atol=1e-6, what=name)


def test_optimizer_state_names_and_fused_adamw():
    net = mint.nn.Linear(2, 1)
    optimizer = mint.optim.FusedAdamW(net.trainable_params(), lr=0.1)
    names = [name for name, _ in optimizer.parameters_and_names()]
    assert "exp_avg.weight" in names and "exp_avg_sq.bias" in names
    with pytest.raises(TypeError, match="betas"):
        mint.optim.Adam(net.trainable_params(), betas=0.9)


def test_distributed_in_one_process():
    dist = mint.distributed
    dist.destroy_process_group()
    assert dist.is_available() and not dist.is_initialized()
    dist.init_process_group()
    try:
        assert dist.is_initialized() and dist.get_backend() == "hccl"
        assert dist.get_rank() == 0 and dist.get_world_size() == 1
        assert dist.get_process_group_ranks() == [0] and dist.get_global_rank(None, 0) == 0
        assert dist.get_group_rank(dist.new_group([0]), 0) == 0
        t = ms.Tensor(np.array([1.0, 2.0], np.float32))
        assert dist.all_reduce(t, op="max") is None
        assert dist.all_reduce(t, async_op=True).wait()
        compare(t, torch.tensor([1.0, 2.0]))
        out = ms.Tensor(np.zeros(2, np.float32))
        dist.all_gather_into_tensor(out, t)
        compare(out, torch.tensor([1.0, 2.0]))
        parts = [ms.Tensor(np.zeros(2, np.float32))]
        dist.all_gather(parts, t)
        compare(parts[0], torch.tensor([1.0, 2.0]))
        dist.reduce_scatter_tensor(out, ms.Tensor(np.array([3.0, 4.0], np.float32)))
        compare(out, torch.tensor([3.0, 4.0]))
        dist.all_to_all_single(out, t)
        compare(out, torch.tensor([1.0, 2.0]))
        outs = [ms.Tensor(np.zeros(2, np.float32))]
        dist.all_to_all(outs, [ms.Tensor(np.array([5.0, 6.0], np.float32))])
        compare(outs[0], torch.tensor([5.0, 6.0]))
        dist.scatter(out, [ms.Tensor(np.array([7.0, 8.0], np.float32))])
        compare(out, torch.tensor([7.0, 8.0]))
        dist.all_gather_into_tensor_uneven(out, t, [2])
        compare(out, torch.tensor([1.0, 2.0]))
        dist.reduce_scatter_tensor_uneven(out, ms.Tensor(np.array([3.0, 4.0], np.float32)), [2])
        compare(out, torch.tensor([3.0, 4.0]))
        dist.reduce_scatter(out, [ms.Tensor(np.array([5.0, 6.0], np.float32))])
        compare(out, torch.tensor([5.0, 6.0]))
        with pytest.raises(ValueError, match="unequal split sizes"):
            dist.all_gather_into_tensor_uneven(out, t, [1, 3])
        dist.broadcast(out, 0)
        dist.reduce(out, 0)
        dist.barrier()
        found = [None]
        dist.all_gather_object(found, {"step": 3})
        assert found == [{"step": 3}]
        items = [1, "a"]
        dist.broadcast_object_list(items)
        assert items == [1, "a"]
        received = [None]
        dist.scatter_object_list(received, [{"x": 1}])
        assert received == [{"x": 1}]
        gathered = [None]
        dist.gather_object("x", gathered)
        assert gathered == ["x"]
        with pytest.raises(ValueError, match="this process"):
            dist.send(t, 0)
        for function in (dist.isend, dist.irecv, dist.send_object_list,
                         dist.recv_object_list):
            with pytest.raises(ValueError, match="this process"):
                function([1] if "object" in function.__name__ else t, 0)
        with pytest.raises(ValueError, match="this process"):
            dist.batch_isend_irecv([dist.P2POp(dist.isend, t, 0)])
        assert dist.batch_isend_irecv([]) == []
        with pytest.raises(ValueError, match="not in the group"):
            dist.recv(t, 3)
        with pytest.raises(ValueError, match="only the whole world"):
            dist.new_group([0, 1])
        with pytest.raises(ValueError, match="backend"):
            dist.init_process_group("tcp")
        with pytest.raises(ValueError, match="isend or irecv"):
            dist.P2POp(dist.send, t, 0)
    finally:
        dist.destroy_process_group()
    assert not dist.is_initialized()


@pytest.mark.skipif(not os.path.exists(NAMES), reason="MindSpore 2.10's mint name lists")
def test_mindspore_mint_names_exist():
    with open(NAMES) as f:
        names = json.load(f)
    missing = {}
    for key, module in (("mint", mint), ("mint.nn", mint.nn),
                        ("mint.nn.functional", mint.nn.functional)):
        missing[key] = sorted(n for n in names[key] if not hasattr(module, n))
    # complex numbers (polar) have no dtype here
    assert missing == {"mint": ["polar"], "mint.nn": [], "mint.nn.functional": []}, missing
