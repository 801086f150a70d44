"""Programs whose tensorjit results differ from MindSpore 2.10's graph mode on purpose, each
with the reason; ``docs/mindspore-differences.md`` lists the same programs (a test checks).

Each entry is ``(reference, reason)``. ``PYNATIVE``: tensorjit gives Python's answer, which
is what MindSpore's own PyNative mode gives -- checked: every tensorjit configuration must
equal MindSpore's recorded PyNative results. ``None``: no MindSpore mode gives tensorjit's
answer (a MindSpore bug, or a deliberate choice); the reason says which.
"""
PYNATIVE = "pynative"

_PYTHON_ACCEPTED = ("MindSpore's graph mode rejects this construct; tensorjit runs it as "
                    "Python does (its PyNative mode too)")
_PYTHON_ERROR = ("tensorjit raises Python's own exception type for this Python mistake, as "
                 "MindSpore's PyNative mode does; its graph compiler reports another type")

DIFFERENCES = {
    # --- constructs MindSpore's graph mode rejects and tensorjit runs as Python does
    "builtins.max_with_key_and_default": (PYNATIVE, _PYTHON_ACCEPTED + " (max/min with key= "
                                          "and default=)"),
    "builtins.filter_tuple": (PYNATIVE, _PYTHON_ACCEPTED + " (filter(None, ...))"),
    "statements.while_else": (PYNATIVE, _PYTHON_ACCEPTED + " (while ... else)"),
    "statements.while_else_skipped_by_break": (PYNATIVE, _PYTHON_ACCEPTED + " (while ... else)"),
    "statements.for_else": (PYNATIVE, _PYTHON_ACCEPTED + " (for ... else)"),
    "statements.nested_comprehension": (PYNATIVE, _PYTHON_ACCEPTED + " (two 'for' in one "
                                        "comprehension)"),
    "statements.dict_and_set_comprehension": (PYNATIVE, _PYTHON_ACCEPTED + " (set "
                                              "comprehensions)"),
    "statements.nonlocal_in_nested_function": (PYNATIVE, _PYTHON_ACCEPTED + " (nonlocal; the "
                                               "function runs as Python in ast mode)"),
    "statements.with_statement": (PYNATIVE, _PYTHON_ACCEPTED + " (with on a plain class)"),
    "statements.try_except": (PYNATIVE, _PYTHON_ACCEPTED + " (try / except)"),
    "types_sequences.del_list_item": (PYNATIVE, _PYTHON_ACCEPTED + " (del)"),
    "operators.walrus_in_condition": (PYNATIVE, _PYTHON_ACCEPTED + " (:=)"),
    "statements.for_over_range_of_scalar_tensor": (
        PYNATIVE, "range() of an integer tensor: MindSpore's graph mode rejects it; tensorjit "
        "makes it a graph loop (ast) or reads the value (bytecode, trace)"),
    "errors.branches_return_different_types": (
        PYNATIVE, "branches of a tensor 'if' returning different types: MindSpore's graph "
        "mode cannot join them (TypeError); tensorjit runs that statement as Python (ast) or "
        "decides on the value (bytecode, trace), giving Python's answer"),
    "errors.branches_assign_different_types": (PYNATIVE, "as branches_return_different_types"),
    "errors.branches_assign_different_dtypes": (PYNATIVE, "as branches_return_different_types"),
    "errors.variable_defined_in_one_branch": (
        PYNATIVE, "a variable assigned on one path of a tensor 'if' and read afterwards: "
        "MindSpore's graph mode raises UnboundLocalError even when the path that assigns it "
        "is taken; tensorjit gives Python's answer (ast runs that 'if' as Python)"),
    "operators.and_or_mixing_tensors_and_numbers": (
        PYNATIVE, "'and' / 'or' whose operands are a tensor and a number: MindSpore's graph "
        "mode cannot join them; tensorjit gives Python's answer (the operand)"),
    "errors.while_changing_tensor_shape": (
        PYNATIVE, "a tensor 'while' whose body changes a variable's shape: MindSpore's graph "
        "mode rejects it; tensorjit runs the loop as Python (ast) or unrolls it on the "
        "values (bytecode, trace)"),
    "operators.augmented_assignment_broadcasts_to_bigger_shape": (
        PYNATIVE, "'s += x' whose result is larger than s: MindSpore's graph mode treats it "
        "as an in-place write and fails; tensorjit rebinds s to the result (PyNative does)"),
    "operators.augmented_assignment_grows_in_loop": (
        PYNATIVE, "as augmented_assignment_broadcasts_to_bigger_shape"),
    "grad_operation.through_tensor_while": (
        PYNATIVE, "MindSpore 2.10's graph compiler fails (RuntimeError 'Graph cycle exists') "
        "on the gradient of this tensor-dependent while loop; its PyNative mode and "
        "tensorjit give the gradient"),
    "grad_operation.grad_of_grad_of_cell_input": (
        PYNATIVE, "MindSpore 2.10's graph compiler fails (RuntimeError 'Illegal AnfNode') on "
        "a gradient of a GradOperation of a Cell; its PyNative mode and tensorjit agree"),
    "int_grads.int_grad_operation_float_sens": (
        PYNATIVE, "a float sensitivity for an integer output: MindSpore's graph mode cannot "
        "join the types; tensorjit casts it to the output's dtype, as PyNative does"),
    # --- MindSpore's graph mode computes something other than Python's answer
    "builtins.pow_builtin": (PYNATIVE, "pow(3, 2, 5): MindSpore's graph mode ignores the "
                             "modulus (9); Python gives 4"),
    "operators.is_and_is_not": (PYNATIVE, "'x is x' for a tensor is False in MindSpore's "
                                "graph mode; Python (and tensorjit) say True"),
    "types_sequences.list_sort_and_sorted": (PYNATIVE, "list.sort() does nothing in "
                                             "MindSpore's graph mode"),
    "types_sequences.list_reverse_index_count": (
        PYNATIVE, "list.index / list.count give a Tensor in MindSpore's graph mode, an int "
        "in Python"),
    "types_dict_str_none.f_strings_of_python_values": (
        PYNATIVE, "MindSpore's graph mode ignores the format spec in f'{n:03d}'"),
    "types_dict_str_none.f_string_of_tensor_shape": (
        PYNATIVE, "MindSpore's graph mode formats a tuple as '(2)' and True as 'true'"),
    "types_dict_str_none.large_and_negative_numbers": (
        PYNATIVE, "MindSpore's graph mode computes 10 ** -2 as the int 0 and 1e300 * 10 as "
        "inf"),
    "types_dict_str_none.dict_fromkeys_and_pop": (
        PYNATIVE, "MindSpore's graph mode makes dict.fromkeys a tuple (no .pop)"),
    "types_dict_str_none.number_division_by_zero_is_an_error": (
        PYNATIVE, "1 / 0 raises ZeroDivisionError in Python, ValueError in MindSpore's graph "
        "mode"),
    "operators.tensor_in_list_with_other_objects": (
        PYNATIVE, "'t in [u, \"a\"]' with tensors of several elements: MindSpore's graph mode "
        "compares them by value; Python asks the truth value of t == u, which is ambiguous "
        "(ValueError), and so does tensorjit in every mode (eager runs Python's 'in', which "
        "no capture can change)"),
    "operators.tensor_in_tuple_of_tensors_is_identity": (
        PYNATIVE, "as tensor_in_list_with_other_objects"),
    "errors.tensor_in_list_with_string": (PYNATIVE, "as operators."
                                          "tensor_in_list_with_other_objects"),
    "errors.zero_d_tensor_in_list_with_string": (
        PYNATIVE, "'t in [u, \"a\"]' of 0-d tensors: a Python bool, as in Python; MindSpore's "
        "graph mode gives a bool Tensor"),
    "errors.dict_missing_key": (PYNATIVE, _PYTHON_ERROR + " (KeyError)"),
    "errors.calling_a_number": (PYNATIVE, _PYTHON_ERROR + " (TypeError)"),
    "errors.tuple_index_with_float": (PYNATIVE, _PYTHON_ERROR + " (TypeError)"),
    "errors.unpack_wrong_number_of_values": (PYNATIVE, _PYTHON_ERROR + " (ValueError)"),
    "errors.unpack_tensor_with_wrong_length": (PYNATIVE, _PYTHON_ERROR + " (ValueError)"),
    "errors.grad_operation_sens_wrong_shape": (
        PYNATIVE, "a sensitivity of the wrong shape: MindSpore's graph mode silently returns "
        "a gradient of the sensitivity's shape; tensorjit raises ValueError, as PyNative does"),
    "errors.has_aux_with_single_output": (
        PYNATIVE, "has_aux=True with one output: ValueError, as MindSpore's PyNative mode "
        "(its graph mode raises RuntimeError)"),
    # --- no MindSpore mode gives tensorjit's answer
    "grad_operation.grad_of_indexing_and_concat": (
        None, "MindSpore 2.10 drops the gradient through a reversed slice a[::-1] (20, 4 "
        "instead of 22, 8 for sum(concat(3 a[:1], a, a[::-1]) ** 2) at a = (1, 2)) in both "
        "of its modes; tensorjit's gradient is the analytic one"),
    "operators.invert_of_int_and_bool_tensors": (
        None, "~ of an integer tensor is a logical not in MindSpore (a bool result); "
        "tensorjit keeps Python's and NumPy's bitwise invert"),
    "errors.float_op_on_int_tensor": (
        None, "ops.exp of an int32 tensor: MindSpore's kernel rejects int32; tensorjit "
        "promotes integers to float32 for floating-point functions"),
    "errors.matmul_with_mismatched_shapes": (
        None, "operators with mismatched shapes raise ValueError in tensorjit (the Python / "
        "NumPy convention, the same for every operator); MindSpore's MatMul raises "
        "RuntimeError"),
    "errors.tensor_from_ragged_list": (
        None, "Tensor of a ragged list: ValueError (NumPy's type) in tensorjit, TypeError in "
        "MindSpore"),
    "errors.grad_of_non_tensor_position": (
        None, "grad_position naming a Python number: MindSpore returns an empty tuple; "
        "tensorjit raises TypeError naming the argument (an empty result is rarely what "
        "the caller meant)"),
    "types_objects.cell_with_parameter_created_inside_graph": (
        None, "a Cell with Parameters created inside a jitted function: MindSpore's graph "
        "mode creates them once, at compile time, so their values persist from call to "
        "call, unlike eagerly; tensorjit refuses (TypeError) rather than give results that "
        "depend on the mode"),
}

DOCS = "docs/mindspore-differences.md"
BEGIN = "<!-- BEGIN generated from tests/conformance/known_differences.py -->"
END = "<!-- END generated -->"
_SECTIONS = [
    (PYNATIVE, "tensorjit gives Python's answer, as MindSpore's PyNative mode does",
     "The conformance test checks it: every tensorjit mode and level equals MindSpore's "
     "recorded PyNative results for these programs."),
    (None, "No MindSpore mode gives tensorjit's answer",
     "A MindSpore bug, or a deliberate choice; the reason says which."),
]


def markdown():
    """The list of differences as it appears in ``docs/mindspore-differences.md``."""
    lines = [BEGIN, ""]
    for reference, title, note in _SECTIONS:
        names = [n for n, (r, _) in DIFFERENCES.items() if r == reference]
        lines += [f"### {title} ({len(names)})", "", note, "", "| program | reason |",
                  "|---|---|"]
        lines += [f"| `{n}` | {DIFFERENCES[n][1].replace('|', '/')} |" for n in names]
        lines.append("")
    return "\n".join(lines + [END])


def write_docs(root):
    """Replace the generated part of the docs page with ``markdown()``."""
    import os
    path = os.path.join(root, DOCS)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + markdown() + tail)


if __name__ == "__main__":       # python tests/conformance/known_differences.py
    import os
    write_docs(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
