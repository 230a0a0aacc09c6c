"""A connection's mailbox (``Subscriber``): a message goes out at once where the connection can
take it, and otherwise waits in order, a newer table replacing an unsent older one."""

from __future__ import annotations

import asyncio
import sys

from tendays.server.matches.messages import Outgoing
from tendays.server.matches.seats import Subscriber


def table(n: int) -> Outgoing:
    return Outgoing(f'{{"table":{n}}}'.encode(), is_table=True, log_end=n, chat_end=n)


def chat(n: int) -> Outgoing:
    return Outgoing(f'{{"chat":{n}}}'.encode(), chat_end=n)


class Socket:
    """A connection's writes: taken at once while ``open``, else refused."""

    def __init__(self) -> None:
        self.open = True
        self.written: list[bytes] = []

    def write(self, data: bytes) -> bool:
        if self.open:
            self.written.append(data)
        return self.open


def test_a_message_goes_out_at_once_and_counts_as_sent() -> None:
    socket, box = Socket(), Subscriber(0, lang="en")
    box.write_now = socket.write
    box.put(table(3))
    box.put(chat(5))
    assert socket.written == [b'{"table":3}', b'{"chat":5}']
    assert box.pending() == 0 and (box.log_known, box.chat_known, box.chat_queued) == (3, 5, 5)


def test_what_the_socket_cannot_take_waits_and_nothing_overtakes_it() -> None:
    socket, box = Socket(), Subscriber(0, lang="en")
    box.write_now = socket.write
    socket.open = False
    box.put(table(1))
    box.put(chat(2))
    box.put(table(3))  # replaces the unsent table 1
    socket.open = True
    box.put(chat(4))  # the socket takes writes again, but older messages wait
    assert socket.written == [] and box.drain() == ['{"chat":2}', '{"table":3}', '{"chat":4}']
    assert (box.log_known, box.chat_known) == (3, 4)


def test_a_message_put_while_the_sender_writes_another_waits_for_it() -> None:
    socket, box = Socket(), Subscriber(0, lang="en")
    box.write_now = socket.write
    sent: list[bytes] = []

    async def run() -> None:
        drained = asyncio.Event()

        async def send(data: bytes) -> None:
            if not sent:  # made while the first is still being written: it must come after
                box.put(chat(9))
            sent.append(data)
            if len(sent) == 2:
                drained.set()

        sending = asyncio.ensure_future(box.send_each(send))
        socket.open = False
        box.put(table(1))
        socket.open = True
        await drained.wait()
        await asyncio.sleep(0)
        sending.cancel()

    asyncio.run(run())
    assert sent == [b'{"table":1}', b'{"chat":9}'] and socket.written == []


def test_a_write_that_fails_leaves_the_message_to_the_sender() -> None:
    box = Subscriber(None, lang="en")

    def broken(data: bytes) -> bool:
        raise RuntimeError("the transport is closed")

    box.write_now = broken
    box.put(table(2))  # the table is told everyone else regardless
    assert box.drain() == ['{"table":2}']


def test_the_sending_task_lets_go_of_a_message_once_sent() -> None:
    """An idle connection waits for its next message for hours: it must not keep its last one
    (a new connection's first table holds the whole log) alive meanwhile."""

    async def scenario() -> None:
        box = Subscriber(0, lang="en")
        sent: list[int] = []
        data = f'{{"table":{"x" * 5000}}}'.encode()

        async def send(message: bytes) -> None:
            sent.append(id(message))

        box.put(Outgoing(data, is_table=True, log_end=1))
        held = sys.getrefcount(data)  # this frame's, the message's and the box's references
        task = asyncio.create_task(box.send_each(send))
        while not sent:
            await asyncio.sleep(0)
        await asyncio.sleep(0)  # the task is back waiting for the next message
        assert sent == [id(data)]
        assert sys.getrefcount(data) < held  # only this frame's (and the argument's) are left
        task.cancel()

    asyncio.run(scenario())
