"""MindSpore's functional-programming tutorial on Jacobians and Hessians (vjp batched with
vmap, jacrev, jacfwd, Hessians as jacfwd of jacrev, batched Jacobians, Hessian-vector
products as jvp of grad), ported to tensorjit: only the import lines differ.
tests/core/test_tutorials.py checks every printed value against the formulas in NumPy.

    python examples/tutorial_jacobians_hessians.py
"""
import time
from functools import partial

import tensorjit as mindspore
from tensorjit import ops
from tensorjit import jacrev, jacfwd, vmap, vjp, jvp, grad

mindspore.set_seed(1)


def forecast(weight, bias, x):
    return ops.dense(x, weight, bias).tanh()


D = 16
weight = ops.randn(D, D)
bias = ops.randn(D)
x = ops.randn(D)

# ## The Jacobian row by row: vjp with each unit vector, batched by vmap

output, vjp_fn = vjp(partial(forecast, weight, bias), x)
unit_vectors = ops.eye(D)


def vjp_fn_func(x):
    return vjp_fn(x)[0]


vmap_vjp_fn = vmap(vjp_fn_func)
jacobian = vmap_vjp_fn(unit_vectors)
print(jacobian.shape)

# ## jacrev

jacobian_rev = jacrev(forecast, grad_position=2)(weight, bias, x)
print(jacobian_rev.shape)

# the Jacobians with respect to the weight and the bias
ft_jac_weight, ft_jac_bias = jacrev(forecast, grad_position=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)

# ## jacfwd, and which one is faster


def timed(fn, *args):
    fn(*args)
    start = time.perf_counter()
    for _ in range(10):
        result = fn(*args)
    return result, (time.perf_counter() - start) * 100


jacobian_fwd, fwd_ms = timed(jacfwd(forecast, grad_position=2), weight, bias, x)
_, rev_ms = timed(jacrev(forecast, grad_position=2), weight, bias, x)
print(f"jacfwd {fwd_ms:.2f} ms, jacrev {rev_ms:.2f} ms")

# ## Hessians


def hessian(f, grad_position):
    return jacfwd(jacrev(f, grad_position), grad_position)


hess = hessian(forecast, 2)(weight, bias, x)
print(hess.shape)
hess_builtin = mindspore.hessian(forecast, grad_position=2)(weight, bias, x)
print(hess_builtin.shape)

# ## Batched Jacobians

batch_size = 64
Din = 31
Dout = 33

weight_b = ops.randn(Dout, Din)
bias_b = ops.randn(Dout)
x_b = ops.randn(batch_size, Din)

compute_batch_jacobian = vmap(jacrev(forecast, grad_position=2), in_axes=(None, None, 0))
batch_jacobian = compute_batch_jacobian(weight_b, bias_b, x_b)
print(batch_jacobian.shape)

# ## Hessian-vector products


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def f(x):
    return x.sin().sum()


x_h = ops.randn(2048)
tangent = ops.randn(2048)
result = hvp(f, (x_h,), (tangent,))
print(result.shape)
