"""`padax.io`: Paddle's data loading (datasets, samplers, DataLoader) with batches delivered on the device.

Datasets and samplers are host-side Python; `DataLoader` batches samples (in worker processes
when num_workers > 0), puts each batch on the device (or a sharding) from a background thread
ahead of use, and can save and restore its position (`state_dict`/`set_state_dict`).
"""
from padax.io._fetch import WorkerError
from padax.io._worker import WorkerInfo, get_worker_info
from padax.io.batch_sampler import BatchSampler, DistributedBatchSampler
from padax.io.collate import SampleShapeError, default_collate_fn, default_convert_fn
from padax.io.dataloader import DataLoader
from padax.io.dataset import (ChainDataset, ComposeDataset, ConcatDataset, Dataset, IterableDataset, Subset,
                              TensorDataset, random_split)
from padax.io.device import prefetch_to_device, to_device
from padax.io.sampler import (RandomSampler, Sampler, SequenceSampler, SubsetRandomSampler,
                              WeightedRandomSampler)

__all__ = ["BatchSampler", "ChainDataset", "ComposeDataset", "ConcatDataset", "DataLoader", "Dataset",
           "DistributedBatchSampler", "IterableDataset", "RandomSampler", "SampleShapeError", "Sampler",
           "SequenceSampler", "Subset", "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler",
           "WorkerError", "WorkerInfo", "default_collate_fn", "default_convert_fn", "get_worker_info",
           "prefetch_to_device", "random_split", "to_device"]
