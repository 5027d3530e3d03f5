"""`fleet.meta_parallel`: tensor-parallel layers, a Megatron block with sequence parallelism, and pipelines."""
from padax.distributed.fleet.meta_parallel.mp_layers import (ColumnParallelLinear, ParallelCrossEntropy,
                                                            RowParallelLinear, VocabParallelEmbedding)
from padax.distributed.fleet.meta_parallel.parallel_blocks import (ParallelMLP, ParallelMultiHeadAttention,
                                                                  ParallelTransformerLayer, gather_sequence,
                                                                  scatter_sequence)
from padax.distributed.fleet.meta_parallel.pipeline_parallel import (PipelineParallel, PipelineParallelWithInterleave,
                                                                     pipeline_value_and_grad)
from padax.distributed.fleet.meta_parallel.pp_layers import LayerDesc, PipelineLayer

__all__ = ["ColumnParallelLinear", "RowParallelLinear", "VocabParallelEmbedding", "ParallelCrossEntropy",
           "ParallelMLP", "ParallelMultiHeadAttention", "ParallelTransformerLayer", "scatter_sequence",
           "gather_sequence", "LayerDesc", "PipelineLayer", "PipelineParallel", "PipelineParallelWithInterleave",
           "pipeline_value_and_grad"]
