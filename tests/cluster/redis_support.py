"""Redis servers of other kinds than ``cluster.support.RedisServer``'s, for the tests of how
a process reaches its Redis (``tests/cluster/test_redis_auth.py``)."""

from __future__ import annotations

import shlex

from cluster.support import RedisServer
from server.support import free_port


class ClusterNode(RedisServer):
    """``redis-server`` in cluster mode (``--cluster-enabled yes``): a node of a Redis
    Cluster, no slots assigned; its cluster state in its folder, its cluster bus on a free
    port."""

    def __init__(self) -> None:
        super().__init__()
        wrapper = self.folder / "redis-server"
        options = f"--cluster-enabled yes --cluster-config-file {self.folder / 'nodes.conf'}"
        # Its cluster bus on a free port of its own: by default the port plus 10,000, which
        # a free port above 55,535 does not have.
        options += f" --cluster-port {free_port()}"
        wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(self.binary)} "$@" {options}\n')
        wrapper.chmod(0o755)
        self.binary = str(wrapper)
