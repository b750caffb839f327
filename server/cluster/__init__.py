"""Several nodes sharing one lobby through Redis (see :mod:`server.cluster.node`)."""

from .node import Cluster

__all__ = ["Cluster"]
