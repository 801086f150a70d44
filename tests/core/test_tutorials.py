"""The ported MindSpore tutorials in examples/ (autograd; functional programming: vmap,
per-sample gradients, Jacobians and Hessians) run as they are, and every value they print
equals a NumPy formula written here (or finite differences).

Each example runs in this process with ``print`` replaced by a recorder of the printed
objects, so the examples stay the tutorials' code."""
import os
import runpy

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_tutorial(name):
    printed = []

    def record(*values, **kwargs):
        printed.append(values[0] if len(values) == 1 else values)

    module = runpy.run_path(os.path.join(ROOT, "examples", name),
                            init_globals={"print": record}, run_name="__main__")
    return module, printed


def arr(t):
    return np.asarray(t.asnumpy(), np.float64)


def close(actual, expected, tol=1e-5):
    np.testing.assert_allclose(arr(actual), expected, rtol=tol, atol=tol)


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def test_autograd_tutorial():
    m, printed = run_tutorial("tutorial_autograd.py")
    x, w, b = arr(m["x"]), arr(m["w"]), arr(m["b"])
    z = x @ w + b                                    # y = 0, weight = pos_weight = 1
    loss = np.mean(np.log1p(np.exp(z)))              # BCE with logits against 0
    dz = sigmoid(z) / 3                              # d loss / d z
    grad_w, grad_b = np.outer(x, dz), dz
    close(printed[0], loss)
    close(printed[1][0], grad_w)
    close(printed[1][1], grad_b)
    # (loss, z): both outputs are differentiated, z adds x (for w) and 1 (for b)
    close(printed[2][0], grad_w + np.outer(x, np.ones(3)))
    close(printed[2][1], grad_b + 1)
    # stop_gradient(z) and has_aux: only the loss
    close(printed[3][0], grad_w)
    grads, aux = printed[4]
    close(grads[0], grad_w)
    close(aux, z)
    # the network: value_and_grad over its parameters (w, b)
    network_grads = printed[5]
    close(network_grads[0], grad_w)
    close(network_grads[1], grad_b)


def test_per_sample_gradients_tutorial():
    m, printed = run_tutorial("tutorial_per_sample_gradients.py")
    theta, s_tp1, r_tp1 = arr(m["theta"]), arr(m["s_tp1"]), arr(m["r_tp1"])
    # td_loss reads the global s_tp1 for both values (the tutorial's code does)
    v_t = theta @ s_tp1
    target = r_tp1 + theta @ s_tp1
    expected = -2 * (target - v_t) * s_tp1
    close(printed[0], expected)
    for batched in printed[1:]:
        close(batched, np.stack([expected, expected]))
    np.testing.assert_allclose(expected, [-4, -8, 0], atol=1e-6)      # MindSpore's output


def numpy_convolve(x, w):
    return np.array([x[i - 1:i + 2] @ w for i in range(1, len(x) - 1)])


def test_vmap_tutorial():
    m, printed = run_tutorial("tutorial_vmap.py")
    x, w = arr(m["x"]), arr(m["w"])
    xb, wb = arr(m["x_batch"]), arr(m["w_batch"])
    close(printed[0], numpy_convolve(x, w))
    per_example = np.stack([numpy_convolve(a, c) for a, c in zip(xb, wb)])
    for batched in printed[1:4]:                     # loop, by hand, vmap
        close(batched, per_example)
    close(printed[4], np.stack([numpy_convolve(a, w) for a in xb], axis=1))
    close(printed[5], np.stack([[numpy_convolve(a, c) for c in wb] for a in xb]))
    timings = printed[6:9]
    assert [t[0].split(":")[0] for t in timings] == ["loop", "hand-vectorized", "vmap"]
    models, minibatches, same = m["models"], m["minibatches"], m["same_minibatch"]

    def mlp(net, data):
        hidden = np.maximum(data @ arr(net.fc1.weight).T + arr(net.fc1.bias), 0)
        return hidden @ arr(net.fc2.weight).T + arr(net.fc2.bias)

    close(m["predictions_diff_minibatch"],
          np.stack([mlp(net, arr(minibatches)[i]) for i, net in enumerate(models)]))
    close(m["predictions_same_minibatch"], np.stack([mlp(net, arr(same)) for net in models]))


def test_jacobians_hessians_tutorial():
    m, printed = run_tutorial("tutorial_jacobians_hessians.py")
    weight, bias, x = arr(m["weight"]), arr(m["bias"]), arr(m["x"])
    y = np.tanh(weight @ x + bias)
    jac_x = (1 - y ** 2)[:, None] * weight                        # d y / d x
    close(m["jacobian"], jac_x)
    close(m["jacobian_rev"], jac_x)
    close(m["jacobian_fwd"], jac_x)
    jac_w = (1 - y ** 2)[:, None, None] * np.eye(16)[:, :, None] * x[None, None, :]
    close(m["ft_jac_weight"], jac_w)
    close(m["ft_jac_bias"], np.diag(1 - y ** 2))
    # d2 y_i / dx_j dx_k = -2 y_i (1 - y_i^2) W_ij W_ik
    hess = (-2 * y * (1 - y ** 2))[:, None, None] * weight[:, :, None] * weight[:, None, :]
    close(m["hess"], hess, tol=1e-4)
    close(m["hess_builtin"], hess, tol=1e-4)
    wb, bb, xb = arr(m["weight_b"]), arr(m["bias_b"]), arr(m["x_b"])
    yb = np.tanh(xb @ wb.T + bb)
    close(m["batch_jacobian"], (1 - yb ** 2)[:, :, None] * wb[None])
    # f = sum(sin x): the Hessian is diag(-sin x)
    close(m["result"], -np.sin(arr(m["x_h"])) * arr(m["tangent"]))
    assert printed[0] == (16, 16) and printed[-1] == (2048,)
