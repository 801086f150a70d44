"""Dead code elimination: drop nodes none of whose results is used, keeping effects."""


def eliminate_dead_code(graph):
    live = {v for v in graph.outputs}
    kept = []
    for node in reversed(graph.nodes):
        if node.prim.effect or any(o in live for o in node.outputs):
            kept.append(node)
            live.update(node.inputs)
            for sub in graph.subgraphs(node):
                eliminate_dead_code(sub)
    removed = len(graph.nodes) - len(kept)
    graph.nodes = kept[::-1]
    graph.consts = {v: c for v, c in graph.consts.items() if v in live}
    return removed
