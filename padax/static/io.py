from padax.static.program import StaticGraphError  # noqa
def save(*a, **k): raise NotImplementedError
load = save_inference_model = load_inference_model = save
