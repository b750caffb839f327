"""A websocket client on a bare socket, for what a normal client library never does: stop
reading, or leave the server's pings unanswered."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections import deque
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri


class RawClient:
    """A websocket client on a bare socket, driven by websockets' sans-I/O protocol: it
    reads only when asked to, and writes only when asked to send (a ping it received is
    answered only by its next :meth:`send`)."""

    def __init__(self, sock: socket.socket, protocol: ClientProtocol) -> None:
        self.sock = sock
        self.protocol = protocol
        self.events: deque[Response | Frame] = deque()
        self.ended = False
        self.pings = 0

    @classmethod
    async def connect(cls, url: str, rcvbuf: int | None = None) -> RawClient:
        uri = parse_uri(url)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:  # before connecting: it bounds the window the server sees
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (uri.host, uri.port))
        client = cls(sock, ClientProtocol(uri))
        client.protocol.send_request(client.protocol.connect())
        await client.flush()
        response = await client.event()
        assert isinstance(response, Response) and response.status_code == 101, response
        return client

    async def flush(self) -> None:
        """Send what the protocol has queued: our frames, and its pongs and close replies."""
        loop = asyncio.get_running_loop()
        for data in self.protocol.data_to_send():
            if data:
                with contextlib.suppress(OSError):
                    await loop.sock_sendall(self.sock, data)

    async def event(self) -> Response | Frame | None:
        """The next thing received; None once the server has closed the TCP connection."""
        while not self.events and not self.ended:
            data = await asyncio.get_running_loop().sock_recv(self.sock, 65536)
            if data:
                self.protocol.receive_data(data)
            else:
                self.protocol.receive_eof()
                self.ended = True
            self.events.extend(self.protocol.events_received())
        return self.events.popleft() if self.events else None

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw_text(json.dumps(message).encode())

    async def send_raw_text(self, data: bytes) -> None:
        """A text frame of these bytes, UTF-8 or not."""
        self.protocol.send_text(data)
        await self.flush()

    async def message(self) -> dict[str, Any]:
        async with asyncio.timeout(5):
            while (event := await self.event()) is not None:
                if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                    return json.loads(event.data)
        raise AssertionError("the connection ended")

    async def until_closed(self, timeout: float = 15) -> tuple[list[dict[str, Any]], int, str]:
        """The messages up to the server's close frame, and its code and reason."""
        messages = []
        async with asyncio.timeout(timeout):
            while (event := await self.event()) is not None:
                if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                    messages.append(json.loads(event.data))
                elif isinstance(event, Frame) and event.opcode is Opcode.PING:
                    self.pings += 1
                elif isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                    break
        close = self.protocol.close_rcvd
        assert close is not None, "the connection ended without a close frame"
        return messages, close.code, close.reason

    def close(self) -> None:
        self.sock.close()
