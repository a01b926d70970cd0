# Prepended to the ws4py starter kit: the client's first read of its socket waits 300 ms, as a
# busy machine may delay a bot between sending its handshake and reading the answer. If the
# server sent its first frame right after the 101 response, that read gets both, and ws4py
# crashes ("'NoneType' object has no attribute 'parser'").
import socket as _socket
import time as _time


class _SlowFirstRead(_socket.socket):
    _waited = False

    def recv(self, *args, **kwargs):
        if not _SlowFirstRead._waited:
            _SlowFirstRead._waited = True
            _time.sleep(0.3)
        return super().recv(*args, **kwargs)


_socket.socket = _SlowFirstRead
