"""Semi-supervised node classification with a two-layer graph convolutional network (Kipf & Welling):
`python -m padax.examples.gcn`.

Each layer is H' = D^-1/2 (A + I) D^-1/2 H W: the propagation runs either as a sparse matrix product
(`padax.sparse.matmul` with the normalised adjacency as a COO tensor) or as message passing
(`padax.geometric.send_u_recv` summing the neighbours' scaled features); the two agree. The graphs:
Zachary's karate club (34 members, 78 friendships, split into two clubs; a few members labelled) or
a synthetic stochastic block model (communities with dense insides, sparse links between them, and
noisy features that alone do not separate the communities).
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any, NamedTuple, Sequence

import numpy as np

import padax
from padax import nn, sparse

F = nn.functional

# Zachary (1977), "An information flow model for conflict and fission in small groups": the 78 friendships
# among the 34 members of a karate club, and the club each member joined after it split (0: the instructor's,
# 1: the administrator's).
KARATE_EDGES = (
    (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (0, 8), (0, 10), (0, 11), (0, 12), (0, 13), (0, 17),
    (0, 19), (0, 21), (0, 31), (1, 2), (1, 3), (1, 7), (1, 13), (1, 17), (1, 19), (1, 21), (1, 30), (2, 3), (2, 7),
    (2, 8), (2, 9), (2, 13), (2, 27), (2, 28), (2, 32), (3, 7), (3, 12), (3, 13), (4, 6), (4, 10), (5, 6), (5, 10),
    (5, 16), (6, 16), (8, 30), (8, 32), (8, 33), (9, 33), (13, 33), (14, 32), (14, 33), (15, 32), (15, 33), (18, 32),
    (18, 33), (19, 33), (20, 32), (20, 33), (22, 32), (22, 33), (23, 25), (23, 27), (23, 29), (23, 32), (23, 33),
    (24, 25), (24, 27), (24, 31), (25, 31), (26, 29), (26, 33), (27, 33), (28, 31), (28, 33), (29, 32), (29, 33),
    (30, 32), (30, 33), (31, 32), (31, 33), (32, 33))
KARATE_CLUBS = (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)


class Dataset(NamedTuple):
    """A graph's undirected edges [E, 2], node features [N, F] float32, labels [N] int64 and the labelled nodes."""
    edges: np.ndarray
    features: np.ndarray
    labels: np.ndarray
    train_nodes: np.ndarray


def karate_club() -> Dataset:
    """The karate club: one-hot node features (identity), two members of each club labelled (the leaders 0 and 33
    and one friend of each)."""
    return Dataset(np.array(KARATE_EDGES, np.int64), np.eye(34, dtype=np.float32), np.array(KARATE_CLUBS, np.int64),
                   np.array([0, 1, 32, 33], np.int64))


def stochastic_block_model(num_classes: int = 4, nodes_per_class: int = 50, p_in: float = 0.12,
                           p_out: float = 0.01, num_features: int = 16, labelled_per_class: int = 5,
                           seed: int = 0) -> Dataset:
    """A random graph whose nodes link with probability p_in inside their community and p_out across; the
    features are the community's random centre (scaled down) plus unit Gaussian noise."""
    rng = np.random.default_rng(seed)
    n = num_classes * nodes_per_class
    labels = np.repeat(np.arange(num_classes), nodes_per_class)
    p = np.where(labels[:, None] == labels[None, :], p_in, p_out)
    upper = np.triu(rng.random((n, n)) < p, 1)
    edges = np.argwhere(upper).astype(np.int64)
    centres = rng.standard_normal((num_classes, num_features)) * 0.5
    features = (centres[labels] + rng.standard_normal((n, num_features))).astype(np.float32)
    train = np.concatenate([rng.choice(np.nonzero(labels == c)[0], labelled_per_class, replace=False)
                            for c in range(num_classes)])
    return Dataset(edges, features, labels.astype(np.int64), np.sort(train))


class Graph(NamedTuple):
    """What the layers propagate over (a pytree: it goes into jit as an argument)."""
    src: Any           # [E'] int64: each directed edge's source, both directions and the self loops
    dst: Any           # [E'] int64: its destination
    scale: Any         # [N, 1]: D^-1/2 of A + I
    adjacency: Any     # the normalised D^-1/2 (A + I) D^-1/2 as a padax.sparse COO tensor [N, N]


def build_graph(edges: np.ndarray, num_nodes: int) -> Graph:
    """The propagation operands of an undirected edge list: both directions plus a self loop per node."""
    loops = np.arange(num_nodes)
    src = np.concatenate([edges[:, 0], edges[:, 1], loops])
    dst = np.concatenate([edges[:, 1], edges[:, 0], loops])
    degree = np.bincount(dst, minlength=num_nodes).astype(np.float32)
    inv_sqrt = 1.0 / np.sqrt(degree)
    adjacency = sparse.sparse_coo_tensor(np.stack([dst, src]), inv_sqrt[dst] * inv_sqrt[src], [num_nodes, num_nodes])
    return Graph(padax.to_tensor(src), padax.to_tensor(dst), padax.to_tensor(inv_sqrt[:, None]),
                 sparse.coalesce(adjacency))


def propagate(h: Any, graph: Graph, how: str) -> Any:
    """D^-1/2 (A + I) D^-1/2 h, as a sparse matrix product or as message passing along the edges."""
    if how == "sparse":
        return sparse.matmul(graph.adjacency, h)
    if how == "message":
        return graph.scale * padax.geometric.send_u_recv(graph.scale * h, graph.src, graph.dst, reduce_op="sum")
    raise ValueError(f"gcn.propagate: how must be 'sparse' or 'message', got {how!r}")


class GCN(nn.Layer):
    """Two graph convolutions with a ReLU between: node features [N, F] -> class logits [N, C]."""

    def __init__(self, in_features: int, hidden: int, num_classes: int, how: str = "sparse") -> None:
        super().__init__()
        self.how = how
        self.fc1 = nn.Linear(in_features, hidden)
        self.fc2 = nn.Linear(hidden, num_classes)

    def forward(self, x: Any, graph: Graph) -> Any:
        h = F.relu(propagate(self.fc1(x), graph, self.how))
        return propagate(self.fc2(h), graph, self.how)


def make_train_step(optimizer):
    """The jitted full-graph step (model, opt_state, x, graph, labels, train_nodes) -> (model, opt_state, loss)."""

    def loss_fn(model, x, graph, labels, train_nodes):
        logits = model(x, graph)
        return F.cross_entropy(padax.gather(logits, train_nodes), padax.gather(labels, train_nodes))

    @padax.jit
    def train_step(model, opt_state, x, graph, labels, train_nodes):
        loss, grads = padax.value_and_grad(loss_fn)(model, x, graph, labels, train_nodes)
        model, opt_state = optimizer.step(model, grads, opt_state)
        return model, opt_state, loss

    return train_step


def main(argv: Sequence[str] | None = None) -> dict:
    """Train on the labelled nodes; returns {'losses', 'accuracy' (on the unlabelled nodes), 'seconds', 'model'}."""
    p = argparse.ArgumentParser(prog="python -m padax.examples.gcn", description=__doc__.splitlines()[0])
    p.add_argument("--graph", choices=("karate", "sbm"), default="karate")
    p.add_argument("--propagate", choices=("sparse", "message"), default="sparse",
                   help="padax.sparse.matmul or padax.geometric.send_u_recv")
    p.add_argument("--epochs", type=int, default=200)
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    say = (lambda *a: None) if args.quiet else print
    t0 = time.perf_counter()
    data = karate_club() if args.graph == "karate" else stochastic_block_model(seed=args.seed)
    n = len(data.labels)
    graph = build_graph(data.edges, n)
    padax.seed(args.seed)
    model = GCN(data.features.shape[1], args.hidden, int(data.labels.max()) + 1, how=args.propagate)
    optimizer = padax.optimizer.Adam(learning_rate=args.lr, weight_decay=5e-4)
    opt_state = optimizer.init(model)
    train_step = make_train_step(optimizer)
    x, labels, train_nodes = (padax.to_tensor(a) for a in (data.features, data.labels, data.train_nodes))
    losses = []
    for epoch in range(1, args.epochs + 1):
        model, opt_state, loss = train_step(model, opt_state, x, graph, labels, train_nodes)
        losses.append(float(loss))
        if epoch % max(1, args.epochs // 5) == 0:
            say(f"epoch {epoch:4d}  loss {losses[-1]:.4f}")
    predicted = np.asarray(padax.argmax(padax.jit(lambda m, x, g: m(x, g))(model, x, graph), axis=1))
    test = np.setdiff1d(np.arange(n), data.train_nodes)
    accuracy = float(np.mean(predicted[test] == data.labels[test]))
    elapsed = time.perf_counter() - t0
    print(f"{args.graph}: {n} nodes, {len(data.edges)} edges, {len(data.train_nodes)} labelled; accuracy on the "
          f"other {len(test)} nodes {accuracy:.4f} after {args.epochs} epochs in {elapsed:.2f}s")
    return {"losses": losses, "accuracy": accuracy, "seconds": elapsed, "model": model, "predicted": predicted}


if __name__ == "__main__":
    sys.exit(0 if main()["accuracy"] >= 0.8 else 1)
