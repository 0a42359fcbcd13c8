"""Cluster tests: the fixtures live in cluster_support.py (a module name of its own: e2e/server has a conftest
too, and both directories may run in one pytest session)."""
from cluster_support import cluster  # noqa: F401  (a fixture pytest finds here)
