"""`padax.random`: explicit-key random numbers (like `jax.random`), plus Paddle's eager helpers.

A key is a plain uint32 array: `key(seed)` gives uint32[2] for Threefry-2x32 (the
default; the same bits as jax.random's default threefry for key/split/fold_in/bits)
or uint32[4] for `impl='rbg'` (XLA's RngBitGenerator). A sampler is a pure
function of (key, parameters, shape, dtype), so it works eagerly, under `jit`
(keys are traced arguments like any other) and under `vmap` over a batch of keys,
and the same key always gives the same numbers. Reusing a key reuses its
numbers: `split` (or `fold_in`) before every new draw.

    key = padax.random.key(0)
    key, sub = padax.random.split(key)
    x = padax.random.normal(sub, (3, 4))

The stateful Paddle-style helpers (`seed`, `rand`, `randn`, `randint` with Paddle's
signature as `padax.randint`, `randperm`, `normal`/`uniform` with Paddle's
signatures at the top level of padax) keep a hidden global key and are eager
conveniences only: see `padax.random._state`.
"""
from padax.random._keys import (PRNGKey, bits, fold_in, key, key_data, key_impl, split, threefry2x32,  # noqa: F401
                                wrap_key_data)
from padax.random._samplers import (bernoulli, beta, binomial, categorical, choice, dirichlet, exponential,  # noqa: F401
                                    gamma, gumbel, loggamma, multinomial, normal, permutation, poisson,
                                    randint, truncated_normal, uniform)
from padax.random._state import get_rng_state, seed, set_rng_state  # noqa: F401
from padax.random import _state  # noqa: F401,E402

# jax's out_sharding= keyword on the samplers: the numbers are laid out so (padax.reshard)
from padax.sharding import accepts_out_sharding as _accepts_out_sharding  # noqa: E402
for _name in ("bernoulli", "beta", "categorical", "choice", "dirichlet", "exponential", "gamma", "gumbel",
              "loggamma", "multinomial", "normal", "permutation", "poisson", "randint", "truncated_normal",
              "uniform", "bits"):
    globals()[_name] = _accepts_out_sharding(globals()[_name])
del _name

__all__ = ["key", "PRNGKey", "split", "fold_in", "bits", "key_data", "wrap_key_data", "key_impl",
           "threefry2x32", "uniform", "normal", "truncated_normal", "randint", "bernoulli", "binomial", "categorical",
           "gumbel", "exponential", "permutation", "choice", "multinomial", "poisson", "gamma", "loggamma",
           "beta", "dirichlet", "seed", "get_rng_state", "set_rng_state"]
