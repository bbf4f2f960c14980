"""What the end-to-end scripts share."""

import socket


class Failure(Exception):
    """A scenario's expectation that did not hold."""


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
