"""MindSpore's own data types in graphs (static-graph syntax page): Tensor attributes and
methods, Parameter, Primitive (operator classes), Cell, dtype objects; attribute
references and calls."""


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def tensor_attributes(x):
    return x.shape, x.ndim, x.size, x.dtype == ms.float32, len(x.shape)


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def tensor_methods(x):
    return x.sum(), x.mean(axis=0), x.max(), x.reshape(4), x.transpose(), x.T, x.abs()


@program(T([[1.0, -2.0], [3.0, 4.0]]))
def tensor_method_chains(x):
    return x.abs().sum(axis=1).astype(ms.int32), x.flatten().argmax()


@program(T([1.0, 2.0]))
def tensor_created_in_graph(x):
    t = Tensor([1.0, 2.0], ms.float32)
    u = Tensor(3, ms.int32)
    return x + t, u * 2, ops.ones((2,), ms.float32) + x


@program(T([1.0, 2.0]))
def tensor_from_numpy_constant(x):
    return x + Tensor(np.array([10.0, 20.0], np.float32))


@program(T([1, 2], "int32"))
def tensor_astype_and_dtype_compare(x):
    y = x.astype(ms.float32)
    return y / 2, y.dtype == ms.float32, x.dtype == ms.int32, x.dtype != y.dtype


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def tensor_indexing(x):
    return x[0], x[:, 1], x[1, 0], x[-1], x[..., 0], x[None, 0].shape, x[::2]


@program(T([[1.0, 2.0], [3.0, 4.0]]), T([1, 0], "int32"))
def tensor_indexed_by_tensor(x, i):
    return x[i], x[i, 0]


@program(T([1.0, -2.0, 3.0]))
def tensor_bool_mask_index(x):
    return x[x > 0]


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def tensor_setitem(x):
    y = x * 1
    y[0] = 5.0
    y[:, 1] = Tensor([7.0, 8.0], ms.float32)
    return y


@program(T([1.0, 2.0]))
def tensor_setitem_with_mask(x):
    y = x * 1
    y[y > 1] = 0.0
    return y


w_parameter = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w_parameter")


@program(T([1.0, 2.0]))
def parameter_read(x):
    return x * w_parameter + w_parameter.sum()


class _Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(np.array(0.0, np.float32)), name="count")

    def construct(self, x):
        self.count = self.count + 1
        return x * self.count


counter = _Counter()


@program(T([1.0, 2.0]))
@program(T([1.0, 2.0]))
def parameter_assigned_in_cell(x):
    a = counter(x)
    b = counter(x)
    return a, b, counter.count * 1


class _Assigner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.array([0.0, 0.0], np.float32)), name="p")

    def construct(self, x):
        ops.assign(self.p, x * 3)
        F.assign_add(self.p, x)
        return self.p * 1


assigner = _Assigner()


@program(T([1.0, 2.0]))
def ops_assign_and_assign_add(x):
    return assigner(x)


@program(T([1.0, 2.0]), eager=False)
def cell_with_parameter_created_inside_graph(x):
    return _Assigner()(x)


@program(T([[1.0, 2.0], [3.0, 4.0]]), T([[1.0, 0.0], [0.0, 1.0]]))
def primitive_classes(a, b):
    matmul = P.MatMul(transpose_b=True)
    add = P.Add()
    reduce = P.ReduceSum(keep_dims=True)
    return matmul(a, b), add(a, b), reduce(a, 1)


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def primitive_created_in_construct(x):
    return P.Transpose()(x, (1, 0)), P.Reshape()(x, (4,)), P.Cast()(x, ms.int32)


class _Dense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 3, weight_init="ones", bias_init="zeros")  # (no random init)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.dense(x) - 2.5)


dense_net = _Dense()


@program(T([[1.0, 2.0]]))
def cell_with_layers(x):
    return dense_net(x)


class _Containers(nn.Cell):
    def __init__(self):
        super().__init__()
        self.seq = nn.SequentialCell([nn.Dense(2, 2, weight_init="ones", bias_init="zeros"),
                                      nn.ReLU()])
        self.layers = nn.CellList([nn.Dense(2, 2, weight_init="ones", bias_init="zeros"),
                                  nn.Tanh()])

    def construct(self, x):
        y = self.seq(x) * 0.1
        for c in self.layers:
            y = c(y)
        return y


containers = _Containers()


@program(T([[1.0, 2.0]]))
def sequential_cell_and_cell_list(x):
    return containers(x)


class _Attributes(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 2
        self.names = ("a", "b")
        self.table = {"k": 3.0}
        self.flag = True

    def construct(self, x):
        if self.flag:
            x = x * self.scale
        return x + self.table["k"], len(self.names)


attributes = _Attributes()


@program(T([1.0, 2.0]))
def cell_python_attributes(x):
    return attributes(x)


drop = nn.Dropout(p=0.5)
drop.set_train(False)


@program(T([1.0, 2.0]))
def cell_training_flag(x):
    return drop(x), drop.training


@program(T([1.0, 2.0]))
def dtype_objects(x):
    return x.dtype == ms.float32, ms.float32 == ms.float32, ms.int32 != ms.float32, x


@program(T([1.0, 2.0]))
def calls_with_keywords_and_defaults(x):
    def f(a, b=2, *, c=3):
        return a * b + c
    return f(x), f(x, 3), f(x, c=0), f(b=1, a=x)


@program(T([1.0, 2.0]))
def calls_with_varargs_and_kwargs(x):
    def f(*args, **kwargs):
        return len(args), sorted(kwargs), args[0] * kwargs["k"]
    return f(x, 2, k=3, j=1)


@program(T([1.0, 2.0]))
def closure_reads_outer_variable(x):
    k = 3

    def f(v):
        return v * k
    return f(x)


@program(T([1.0, 2.0]))
def nested_function_definitions(x):
    def outer(v):
        def inner(w):
            return w + 1
        return inner(v) * 2
    return outer(x)


_GLOBAL_SCALE = 4.0


@program(T([1.0, 2.0]))
def global_constant_read(x):
    return x * _GLOBAL_SCALE


@program(T([1.0, 2.0]))
def numpy_constants_in_graph(x):
    return x + np.float32(1.5), x * np.pi, np.sqrt(4.0)


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def ops_functional_calls(x):
    return ops.matmul(x, x), ops.transpose(x, (1, 0)), ops.concat((x, x), 0).shape, \
        ops.split(x, 1, 1)[0], ops.where(x > 2, x, 0.0)


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def functional_module_calls(x):
    return F.tensor_add(x, x), F.shape(x), F.reshape(x, (4,)), F.cast(x, ms.int32)
