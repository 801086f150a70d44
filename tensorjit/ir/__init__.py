"""The intermediate representation: typed SSA graphs, their text and dot forms, a verifier."""
from .graph import Graph, Node, Var, Literal, Ref, SourceInfo
from .printer import graph_to_text
from .dot import graph_to_dot
from .verify import verify, IRVerificationError
