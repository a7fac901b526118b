#!/usr/bin/env python3
"""Starts one MPI rank inside a network namespace for scripts/netns_truth.sh.

Open MPI's launcher serves PMIx on 127.0.0.1 of its own namespace, which a
rank in another namespace cannot reach. This wrapper bridges it over the
veth pair: on the launcher's side (`serve HOST`) it forwards HOST:PORT to
127.0.0.1:PORT; on the far side (`reach HOST`) it listens on 127.0.0.1:PORT
and forwards to HOST:PORT. PORT comes from PMIX_SERVER_URI*. Then it runs
the command and exits with its code.

usage: netns_rank.py serve|reach HOST -- COMMAND...
"""
import os
import socket
import subprocess
import sys
import threading
import time


def pmix_port():
    for k, v in os.environ.items():
        if k.startswith("PMIX_SERVER_URI") and "tcp4://" in v:
            return int(v.rsplit(":", 1)[1])
    raise SystemExit("netns_rank.py: no PMIX_SERVER_URI with tcp4 in the environment")


def pipe(a, b):
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    finally:
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def connect(host, port, wait=20.0):
    end = time.time() + wait
    while True:
        try:
            return socket.create_connection((host, port))
        except OSError:
            if time.time() > end:
                raise
            time.sleep(0.05)


PIPES = []


def forward(listen_host, port, up_host):
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((listen_host, port))
    srv.listen(16)

    def loop():
        while True:
            c, _ = srv.accept()
            u = connect(up_host, port)
            for a, b in ((c, u), (u, c)):
                t = threading.Thread(target=pipe, args=(a, b), daemon=True)
                PIPES.append(t)
                t.start()

    threading.Thread(target=loop, daemon=True).start()


def main():
    mode, host, sep, *cmd = sys.argv[1:]
    if sep != "--" or not cmd:
        raise SystemExit(__doc__)
    port = pmix_port()
    if mode == "serve":
        forward(host, port, "127.0.0.1")
    else:
        forward("127.0.0.1", port, host)
    code = subprocess.call(cmd)
    # The rank has exited, but the other side's rank may still be finalizing
    # through this bridge: keep forwarding until every bridged connection has
    # closed (or 20 s), so that MPI_Finalize's last PMIx messages get across.
    # Exiting at once made mpirun report "exiting improperly" on a loaded
    # machine.
    end = time.time() + 20.0
    for t in list(PIPES):
        t.join(max(0.0, end - time.time()))
    sys.exit(code)


if __name__ == "__main__":
    main()
