"""GradOperation (``ops.composite``) in every form -- get_all, get_by_list, sens_param,
on functions and Cells, nested -- and through control flow (if / while / for with break
and continue), as MindSpore's own tests use it."""

grad_all = C.GradOperation(get_all=True)
grad_first = C.GradOperation()
grad_sens = C.GradOperation(sens_param=True)
grad_all_sens = C.GradOperation(get_all=True, sens_param=True)
grad_list = C.GradOperation(get_by_list=True)
grad_all_list = C.GradOperation(get_all=True, get_by_list=True)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
        self.b = Parameter(Tensor(np.array(1.0, np.float32)), name="b")

    def construct(self, x, y):
        return (x * self.w * y).sum() + self.b


net = Net()
params = ParameterTuple(net.trainable_params())


@program(T([1.0, 2.0]), T(3.0))
def first_input(x, y):
    return grad_first(lambda a, b: a * a * b)(x, y)


@program(T([1.0, 2.0]), T(3.0))
def all_inputs(x, y):
    return grad_all(lambda a, b: a * a * b)(x, y)


@program(T([1.0, 2.0]))
def all_inputs_single(x):
    return grad_all(lambda a: a * a)(x)


@program(T([1.0, 2.0]), T(3.0))
def by_list_of_cell(x, y):
    return grad_list(net, params)(x, y)


@program(T([1.0, 2.0]), T(3.0))
def all_and_by_list_of_cell(x, y):
    return grad_all_list(net, params)(x, y)


@program(T([1.0, 2.0]), T(3.0))
def by_list_single_parameter(x, y):
    return grad_list(net, net.w)(x, y)


@program(T([1.0, 2.0]), T(3.0))
def by_list_tuple_of_one(x, y):
    return grad_list(net, (net.w,))(x, y)


@program(T([1.0, 2.0]), T(3.0))
def cell_first_input(x, y):
    return grad_first(net)(x, y)


@program(T([1.0, 2.0]), T(3.0))
def cell_all_inputs(x, y):
    return grad_all(net)(x, y)


@program(T([1.0, 2.0]), T(3.0), T([1.0, 0.5]))
def sens_param(x, y, s):
    return grad_sens(lambda a, b: a * a * b)(x, y, s)


@program(T([1.0, 2.0]), T(3.0), T([1.0, 0.5]))
def all_with_sens(x, y, s):
    return grad_all_sens(lambda a, b: a * a * b)(x, y, s)


@program(T([1.0, 2.0]), T(3.0), T([1.0, 0.5]), T([2.0, 2.0]))
def sens_for_tuple_output(x, y, s1, s2):
    return grad_all_sens(lambda a, b: (a * b, a + b))(x, y, (s1, s2))


@program(T([1.0, 2.0]), T(3.0))
def tuple_output(x, y):
    return grad_all(lambda a, b: (a * b, a + b))(x, y)


@program(T([1.0, 2.0]))
def list_and_dict_outputs(x):
    return grad_first(lambda a: [a * 2, a])(x), grad_first(lambda a: {"k": a * 2})(x)


@program(T([1.0, 2.0]))
def bool_and_constant_outputs(x):
    return grad_first(lambda a: a > 0)(x), grad_first(lambda a: 3)(x)


@program(T([1.0, 2.0]))
def python_number_argument_skipped(x):
    return grad_all(lambda a, n: a * n)(x, 2)


@program(T([1.0, 2.0]))
def python_number_first_argument(x):
    return grad_first(lambda n, a: a * n)(2, x)


@program(T([1.0, 2.0]), T(3.0))
def tuple_argument(x, y):
    return grad_all(lambda xs, z: xs[0] * xs[1] * z)((x, y), y)


@program(T(3.0))
def second_order(y):
    return grad_first(grad_first(lambda v: v * v * v))(y)


@program(T(2.0))
def third_order(y):
    return grad_first(grad_first(grad_first(lambda v: v * v * v * v)))(y)


@program(T(3.0), T(2.0))
def second_order_all_inputs(x, z):
    return grad_all(grad_first(lambda a, b: a * a * b))(x, z)


@program(T(3.0), T(3.0))
def second_order_same_tensor_twice(x, z):
    return grad_all(grad_first(lambda a, b: a * a * b))(x, x)


@program(T([1.0, 2.0]))
def kwargs_not_differentiated(x):
    return grad_all(lambda a, scale=1.0: a * a * scale)(x, scale=3.0)


def f_if(x, y):
    if x.sum() > y:
        z = x * y
    else:
        z = x * x
    return z.sum()


@program(T([1.0, 2.0]), T(1.0))
@program(T([1.0, 2.0]), T(5.0))
def through_tensor_if(x, y):
    return grad_all(f_if)(x, y)


def f_while(x, y):
    i = 0
    while i < 3:
        x = x * y
        i += 1
    return x.sum()


@program(T([1.0, 2.0]), T(2.0))
def through_python_counter_while(x, y):
    return grad_all(f_while)(x, y)


def f_tensor_while(x, y):
    while x.sum() < 10:
        x = x * y
    return x.sum()


@program(T([1.0, 2.0]), T(2.0))
@program(T([3.0, 4.0]), T(1.5))
def through_tensor_while(x, y):
    return grad_all(f_tensor_while)(x, y)


def f_while_if(x, y):
    while x.sum() < 10:
        if y > 2:
            x = x * y
        else:
            x = x + 1
    return x.sum()


@program(T([1.0, 2.0]), T(3.0))
@program(T([1.0, 2.0]), T(1.0))
def through_tensor_while_with_if(x, y):
    return grad_all(f_while_if)(x, y)


def f_for_break_continue(x):
    s = x * 0
    for i in range(5):
        if i == 1:
            continue
        if i == 4:
            break
        s = s + x * x * i
    return s.sum()


@program(T([1.0, 2.0]))
def through_for_break_continue(x):
    return grad_first(f_for_break_continue)(x)


def f_for_tensor_break(x, y):
    s = x * 0
    for i in range(4):
        s = s + x * y
        if s.sum() > 5:
            break
    return s.sum()


@program(T([1.0, 2.0]), T(1.0))
@program(T([1.0, 2.0]), T(0.1))
def through_for_with_tensor_break(x, y):
    return grad_all(f_for_tensor_break)(x, y)


def f_return_in_loop(x):
    for i in range(3):
        if x.sum() > i * 2:
            x = x * 2
        else:
            return x.sum() * i
    return x.sum()


@program(T([1.0, 2.0]))
@program(T([0.1, 0.2]))
def through_return_in_loop(x):
    return grad_first(f_return_in_loop)(x)


def f_nested_if(x, y):
    if x.sum() > 0:
        if y > 0:
            out = x * y
        else:
            out = x - y
    else:
        out = x * 0
    return out.sum()


@program(T([1.0, 2.0]), T(2.0))
@program(T([1.0, 2.0]), T(-2.0))
@program(T([-1.0, -2.0]), T(2.0))
def through_nested_if(x, y):
    return grad_all(f_nested_if)(x, y)


@program(T(2.0))
@program(T(-2.0))
def second_order_through_if(x):
    def f(v):
        if v > 0:
            return v * v * v
        return v * v
    return grad_first(grad_first(f))(x)


class IfNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, -1.0], np.float32)), name="w")

    def construct(self, x):
        if (x * self.w).sum() > 0:
            out = x * self.w * 2
        else:
            out = x * self.w * 3
        return out.sum()


if_net = IfNet()
if_params = ParameterTuple(if_net.trainable_params())


@program(T([2.0, 1.0]))
@program(T([1.0, 2.0]))
def cell_with_if_all_and_weights(x):
    return grad_all_list(if_net, if_params)(x)


class WhileNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array(2.0, np.float32)), name="w")

    def construct(self, x):
        i = 0
        while i < 3:
            x = x * self.w
            i += 1
        return x.sum()


while_net = WhileNet()
while_params = ParameterTuple(while_net.trainable_params())


@program(T([1.0, 2.0]))
def cell_with_while_weights(x):
    return grad_list(while_net, while_params)(x)


class GradWrap(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.network = network
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = C.GradOperation(get_by_list=True)

    def construct(self, x, y):
        return self.grad(self.network, self.weights)(x, y)


grad_wrap = GradWrap(Net())


@program(T([1.0, 2.0]), T(3.0))
def grad_in_construct_of_wrapper_cell(x, y):
    return grad_wrap(x, y)


@program(T([1.0, 2.0]), T(3.0))
def functional_grad_positions(x, y):
    return ms.grad(lambda a, b: (a * b).sum(), grad_position=(0, 1))(x, y)


@program(T([1.0, 2.0]), T(3.0))
def functional_grad_with_weights(x, y):
    return ms.grad(net, grad_position=None, weights=params)(x, y)


@program(T([1.0, 2.0]), T(3.0))
def functional_value_and_grad(x, y):
    return ms.value_and_grad(lambda a, b: (a * a * b).sum(), grad_position=(0, 1))(x, y)


@program(T([1.0, 2.0]), T(3.0))
def functional_grad_has_aux(x, y):
    return ms.grad(lambda a, b: ((a * b).sum(), a + 1), grad_position=0, has_aux=True)(x, y)


@program(T([1.0, 2.0]))
def functional_module_grad(x):
    return F.grad(lambda a: (a * a).sum())(x)


@program(T([1.0, 2.0]))
def stop_gradient_blocks(x):
    return grad_first(lambda a: (a * ops.stop_gradient(a)).sum())(x)


@program(T([1.0, 2.0]), T([3.0, 4.0]))
def grad_of_matmul_and_reductions(x, y):
    def f(a, b):
        m = ops.outer(a, b)
        return (m.mean(axis=0) * m.max(axis=1)).sum()
    return grad_all(f)(x, y)


@program(T([[1.0, -2.0], [0.3, 0.5]]))
def grad_of_activation_chain(x):
    return grad_first(lambda a: (ops.tanh(ops.relu(a) * 2) + ops.sigmoid(a)).sum())(x)


@program(T([1.0, 2.0]))
def grad_of_indexing_and_concat(x):
    return grad_first(lambda a: (ops.concat((a[0:1] * 3, a, a[::-1])) ** 2).sum())(x)


@program(T([1.0, 2.0]))
def grad_through_python_list_accumulation(x):
    def f(a):
        parts = []
        for i in range(3):
            parts.append(a * i)
        return sum(parts).sum()
    return grad_first(f)(x)


@program(T([1.0, 2.0]))
def grad_through_helper_function_calls(x):
    def square(a):
        return a * a

    def f(a):
        return square(square(a)).sum()
    return grad_first(f)(x)


@program(T([1.0, 2.0]), T(1.0))
@program(T([1.0, 2.0]), T(-1.0))
def grad_through_conditional_expression(x, c):
    return grad_all(lambda a, b: (a * 2 if b > 0 else a * a).sum())(x, c)


@program(T([1.0, 2.0]), T(3.0))
def grad_of_grad_of_cell_input(x, y):
    inner = grad_first(net)
    return grad_first(lambda a, b: inner(a, b).sum())(x, y)


@program(T([1.0, 2.0]))
def grad_operation_reused_for_two_functions(x):
    return grad_first(lambda a: a * a)(x), grad_first(lambda a: a * 3)(x)
