"""`padax.optimizer`: Paddle's optimizers and learning-rate schedules as pure state transitions."""
from padax.optimizer import lr  # noqa: F401
from padax.optimizer.optimizers import SGD, Adagrad, Adam, AdamW, Momentum, Optimizer, RMSProp  # noqa: F401
from padax.optimizer.adaptive import ASGD, Adadelta, Adamax, Lamb, NAdam, RAdam, Rprop  # noqa: F401
from padax.optimizer.lbfgs import LBFGS, minimize_lbfgs  # noqa: F401
from padax.optimizer.lbfgs_solver import LBFGSResult, lbfgs_minimize  # noqa: F401
