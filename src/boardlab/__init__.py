"""BoardLab: play, solve and study Dodgem and its relatives, and Dot Dash."""

import os as _os
import sys as _sys

__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)


class _NumbaCacheDir:
    """Sends numba's compiled-kernel cache to the user cache directory (platformdirs), never
    into the installed package: set $NUMBA_CACHE_DIR just before numba is first imported.
    Deciding the folder only then keeps `import boardlab` quick."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> None:
        if name != "numba":
            return None
        if _NumbaCacheDir in _sys.meta_path:
            _sys.meta_path.remove(_NumbaCacheDir)
        if "NUMBA_CACHE_DIR" not in _os.environ:
            import platformdirs

            cache = platformdirs.user_cache_dir("boardlab")
            _os.environ["NUMBA_CACHE_DIR"] = _os.path.join(cache, "numba")
        return None  # the usual finders import numba itself


if "numba" not in _sys.modules:
    _sys.meta_path.insert(0, _NumbaCacheDir)
