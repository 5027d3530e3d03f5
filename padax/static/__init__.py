"""Paddle's `paddle.static`: static-graph Programs (recorded jaxprs) run by an Executor, their layers
(`padax.static.nn`), gradients, saving, and `InputSpec`. See docs/static_graph.md."""
from padax.static import nn  # noqa: F401
from padax.static.backward import append_backward, gradients  # noqa: F401
from padax.static.executor import CompiledProgram, Executor, Scope, global_scope, scope_guard  # noqa: F401
from padax.static.input_spec import InputSpec  # noqa: F401
from padax.static.io import load, load_inference_model, save, save_inference_model  # noqa: F401
from padax.static.layers import create_parameter  # noqa: F401
from padax.static.mode import in_static_mode  # noqa: F401
from padax.static.program import (  # noqa: F401
    Program,
    StaticGraphError,
    Variable,
    cpu_places,
    create_global_var,
    data,
    default_main_program,
    default_startup_program,
    device_guard,
    name_scope,
    program_guard,
)
from padax.metric import accuracy  # noqa: F401,E402
from padax.nn.param_attr import ParamAttr  # noqa: F401,E402
