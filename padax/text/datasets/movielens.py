"""MovieLens 1M (ml-1m.zip): user and movie features with a rating, for recommendation."""
from __future__ import annotations

import re
import zipfile

import numpy as np

from padax.io.dataset import Dataset
from padax.text.datasets._common import check_mode, locate

URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"
age_table = [1, 18, 25, 35, 45, 50, 56]


class MovieInfo:
    """A movie of movies.dat: id, genres and title (without the year).

    Args:
        index: the movie id.
        categories: its genres.
        title: its title.

    Returns:
        The record.

    Examples:
        >>> from padax.text.datasets.movielens import MovieInfo
        >>> MovieInfo("1", ["Comedy"], "Toy Story").value({"Comedy": 0}, {"toy": 0, "story": 1})
        [[1], [0], [0, 1]]
    """

    def __init__(self, index: str, categories: list[str], title: str) -> None:
        self.index = int(index)
        self.categories = categories
        self.title = title

    def value(self, categories_dict: dict, movie_title_dict: dict) -> list[list[int]]:
        """[[id], [genre ids], [title word ids]]."""
        return [[self.index], [categories_dict[c] for c in self.categories],
                [movie_title_dict[w.lower()] for w in self.title.split()]]

    def __repr__(self) -> str:
        return f"<MovieInfo id({self.index}), title({self.title}), categories({self.categories})>"


class UserInfo:
    """A user of users.dat: id, gender, age bucket and occupation.

    Args:
        index: the user id.
        gender: 'M' or 'F'.
        age: the age code (one of 1, 18, 25, 35, 45, 50, 56).
        job_id: the occupation id.

    Returns:
        The record.

    Examples:
        >>> from padax.text.datasets.movielens import UserInfo
        >>> UserInfo("3", "F", "25", "7").value()
        [[3], [1], [2], [7]]
    """

    def __init__(self, index: str, gender: str, age: str, job_id: str) -> None:
        self.index = int(index)
        self.is_male = gender == "M"
        self.age = age_table.index(int(age))
        self.job_id = int(job_id)

    def value(self) -> list[list[int]]:
        """[[id], [0 male / 1 female], [age bucket], [job id]]."""
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __repr__(self) -> str:
        return (f"<UserInfo id({self.index}), gender({'M' if self.is_male else 'F'}), age({age_table[self.age]}), "
                f"job({self.job_id})>")


class Movielens(Dataset):
    """MovieLens 1M ratings: each sample is 8 int64/float arrays (user id [1], gender [1], age bucket [1], job [1],
    movie id [1], genre ids [k], title word ids [m], rating [1] rescaled to 2 * stars - 5).

    Each rating goes to 'test' when a uniform draw from numpy's legacy generator seeded with rand_seed
    is below test_ratio (the same split as Paddle's); genre and title-word ids number the sorted names
    (Paddle numbers them in set order, which changes between runs).

    Args:
        data_file: ml-1m.zip (default: <data home>/movielens/; padax does not download).
        mode: 'train' (default) or 'test'.
        test_ratio: the share of ratings in 'test' (default 0.1).
        rand_seed: the split's seed (default 0).
        download: unused (padax never downloads); it only changes the missing-file message.

    Returns:
        The dataset.

    Examples:
        >>> import padax
        >>> try:
        ...     padax.text.Movielens(data_file="/nonexistent/ml-1m.zip")
        ... except FileNotFoundError as e:
        ...     print("Movielens" in str(e))
        True
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", test_ratio: float = 0.1,
                 rand_seed: int = 0, download: bool = True) -> None:
        self.mode = check_mode("Movielens", mode, ("train", "test"))
        self.data_file = locate("Movielens", "data_file", data_file, "movielens", URL, download)
        self.test_ratio, self.rand_seed = test_ratio, rand_seed
        self._load_meta_info()
        self._load_data()

    def _load_meta_info(self) -> None:
        pattern = re.compile(r"^(.*)\((\d+)\)$")
        self.movie_info, self.user_info = {}, {}
        words, categories = set(), set()
        with zipfile.ZipFile(self.data_file) as package:
            for line in package.read("ml-1m/movies.dat").decode("latin").splitlines():
                if not line.strip():
                    continue
                movie_id, title, cats = line.strip().split("::")
                cats = cats.split("|")
                categories.update(cats)
                title = pattern.match(title).group(1)
                self.movie_info[int(movie_id)] = MovieInfo(index=movie_id, categories=cats, title=title)
                words.update(w.lower() for w in title.split())
            for line in package.read("ml-1m/users.dat").decode("latin").splitlines():
                if line.strip():
                    uid, gender, age, job, _ = line.strip().split("::")
                    self.user_info[int(uid)] = UserInfo(index=uid, gender=gender, age=age, job_id=job)
        self.movie_title_dict = {w: i for i, w in enumerate(sorted(words))}
        self.categories_dict = {c: i for i, c in enumerate(sorted(categories))}

    def _load_data(self) -> None:
        rng = np.random.RandomState(self.rand_seed)
        is_test = self.mode == "test"
        self.data = []
        with zipfile.ZipFile(self.data_file) as package:
            for line in package.read("ml-1m/ratings.dat").decode("latin").splitlines():
                if not line.strip():
                    continue
                if (rng.random_sample() < self.test_ratio) == is_test:
                    uid, mov_id, rating, _ = line.strip().split("::")
                    mov, usr = self.movie_info[int(mov_id)], self.user_info[int(uid)]
                    self.data.append(usr.value() + mov.value(self.categories_dict, self.movie_title_dict)
                                     + [[float(rating) * 2 - 5.0]])

    def __getitem__(self, idx: int) -> tuple[np.ndarray, ...]:
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)
