"""Several nodes sharing one lobby through Redis (see :mod:`server.cluster.node`)."""

from .node import ClusterRouter

__all__ = ["ClusterRouter"]
