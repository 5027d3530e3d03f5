"""`padax.geometric`: Paddle's graph-learning ops (paddle.geometric).

Message passing (`send_u_recv`, `send_ue_recv`, `send_uv`) and segment reductions are composites of
padax's gather/scatter, so they work under grad, vmap and jit (give `out_size` for static shapes);
neighbour sampling and reindexing have value-dependent output sizes and run eagerly on the host.
"""
from padax.geometric._math import segment_max, segment_mean, segment_min, segment_sum
from padax.geometric._message_passing import send_u_recv, send_ue_recv, send_uv
from padax.geometric._sampling import reindex_graph, reindex_heter_graph, sample_neighbors, weighted_sample_neighbors

__all__ = ["reindex_graph", "reindex_heter_graph", "sample_neighbors", "segment_max", "segment_mean",
           "segment_min", "segment_sum", "send_u_recv", "send_ue_recv", "send_uv", "weighted_sample_neighbors"]
