"""The GCN example: the normalised propagation D^-1/2 (A + I) D^-1/2 h equals a dense numpy product both as
padax.sparse.matmul and as padax.geometric.send_u_recv message passing (values and gradients), and training on a
few labelled nodes classifies the others: the karate club's two clubs and a stochastic block model's communities."""
import numpy as np
import pytest

import padax
from padax.examples import gcn


def _dense_propagation(edges, n):
    a = np.eye(n)
    a[edges[:, 0], edges[:, 1]] = a[edges[:, 1], edges[:, 0]] = 1.0
    d = 1.0 / np.sqrt(a.sum(1))
    return d[:, None] * a * d[None, :]


def test_sparse_and_message_passing_propagation_equal_the_dense_product():
    data = gcn.karate_club()
    graph = gcn.build_graph(data.edges, 34)
    assert graph.adjacency.nnz() == 2 * 78 + 34
    h = np.random.default_rng(0).standard_normal((34, 5)).astype(np.float32)
    want = _dense_propagation(data.edges, 34) @ h
    for how in ("sparse", "message"):
        np.testing.assert_allclose(np.asarray(gcn.propagate(padax.to_tensor(h), graph, how)), want,
                                   rtol=1e-5, atol=1e-5)
    grads = [np.asarray(padax.grad(lambda h, how=how: (gcn.propagate(h, graph, how) ** 2).sum())(padax.to_tensor(h)))
             for how in ("sparse", "message")]
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("graph, how, floor", [("karate", "sparse", 0.9), ("sbm", "message", 0.95)])
def test_gcn_classifies_the_unlabelled_nodes(graph, how, floor):
    result = gcn.main(["--graph", graph, "--propagate", how, "--epochs", "100", "--quiet"])
    assert result["accuracy"] >= floor
    assert result["losses"][-1] < result["losses"][0] / 3
