"""sprawlmap's rules engine: pure Python with shapely/numpy/scipy; never imports Qt."""

__version__ = "0.1.0"
