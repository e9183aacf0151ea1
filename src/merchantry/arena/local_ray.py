"""A throwaway Ray head on this machine, for trying the Ray backend without a cluster (the tests, and
benchmarks/ray_vs_local.py): `ray start --head` on 127.0.0.1 with free ports, and a stop that ends every
process it left behind.

`ray start` leaves daemons running after it returns, all in the session of the command that started them;
started in a new session, nothing else is in it, so the session id finds them all.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

STOP_SECONDS = 10  # per signal: TERM first, then KILL for what is left


@dataclass(frozen=True)
class LocalCluster:
    address: str  # host:port of the head, for `--address`
    session: int  # the session of every process the head started


class ClusterFailed(RuntimeError):
    """`ray start` exited with an error; the message ends with its output."""


def free_ports(count: int) -> list[int]:
    """`count` distinct ports that were free a moment ago (bound together, so none repeats)."""
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def start(ray: Path, env: dict[str, str], temp: str, cpus: int = 2, timeout: float = 300) -> LocalCluster:
    """A head node started with the `ray` command at `ray`, its ports free ones, no dashboard, its files
    under `temp` (keep the path short: Ray puts sockets there)."""
    gcs, manager, objects, metrics, agent, agent_grpc, runtime_env, dashboard = free_ports(8)
    command = [
        str(ray), "start", "--head", "--node-ip-address=127.0.0.1", f"--port={gcs}",
        f"--node-manager-port={manager}", f"--object-manager-port={objects}",
        f"--metrics-export-port={metrics}", f"--dashboard-agent-listen-port={agent}",
        f"--dashboard-agent-grpc-port={agent_grpc}", f"--runtime-env-agent-port={runtime_env}",
        f"--dashboard-port={dashboard}", "--include-dashboard=false", f"--num-cpus={cpus}",
        "--disable-usage-stats", f"--temp-dir={temp}",
    ]  # fmt: skip
    starter = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    try:
        output, _ = starter.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(starter.pid)
        raise
    if starter.returncode:
        stop(starter.pid)
        raise ClusterFailed(f"ray start failed:\n{output[-2000:]}")
    return LocalCluster(f"127.0.0.1:{gcs}", starter.pid)


def processes_of_session(session: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[3]) == session:
                    found.append(int(entry.name))
    return found


def stop(session: int) -> None:
    """Every process of the head's session ended: asked first, then killed."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in processes_of_session(session):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + STOP_SECONDS
        while processes_of_session(session) and time.monotonic() < deadline:
            time.sleep(0.2)
