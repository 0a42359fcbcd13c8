"""Cluster tests: the fixtures live in cluster_support.py (a module name of its own: e2e/server has a conftest
too, and both directories may run in one pytest session)."""
from cluster_support import cluster, pytest_runtest_makereport  # noqa: F401  (a fixture and a hook pytest finds here)
