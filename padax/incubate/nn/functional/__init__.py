"""`padax.incubate.nn.functional`: Paddle's fused language-model ops (rotary embeddings, fused
norms, activations, dropout-add, matmul epilogues, variable-length attention, mixture-of-experts routing) as compositions of
padax primitives, so jit, grad and vmap see through them and XLA does the fusing."""
from padax.incubate.nn.functional.fused_bias_act import fused_bias_act
from padax.incubate.nn.functional.fused_dropout_add import fused_dropout_add
from padax.incubate.nn.functional.fused_layer_norm import fused_layer_norm
from padax.incubate.nn.functional.fused_matmul_bias import fused_linear, fused_linear_activation, fused_matmul_bias
from padax.incubate.nn.functional.fused_rms_norm import fused_rms_norm
from padax.incubate.nn.functional.fused_rotary_position_embedding import fused_rotary_position_embedding
from padax.incubate.nn.functional.fused_transformer import (
    fused_bias_dropout_residual_layer_norm,
    fused_feedforward,
    fused_multi_head_attention,
)
from padax.incubate.nn.functional.moe import load_balancing_loss, moe_permute, moe_topk_gating, moe_unpermute
from padax.incubate.nn.functional.swiglu import swiglu
from padax.incubate.nn.functional.variable_length_memory_efficient_attention import (
    variable_length_memory_efficient_attention,
)

__all__ = ["fused_bias_act", "fused_bias_dropout_residual_layer_norm", "fused_feedforward", "fused_multi_head_attention", "fused_dropout_add", "fused_layer_norm", "fused_linear", "fused_linear_activation",
           "fused_matmul_bias", "fused_rms_norm", "load_balancing_loss", "fused_rotary_position_embedding", "moe_permute", "moe_topk_gating",
           "moe_unpermute", "swiglu",
           "variable_length_memory_efficient_attention"]
