"""A called service (`[service.NAME]`, a step `call NAME`) as an OS process of
its own: a loopback TCP server that answers each call `latency` after it
read it — locksim's sim/workload/service.cc, which sets one timer per call,
so calls are answered concurrently, not one after another.

Its own process, not a thread of the driver, so that a stall is made for
real: the driver stops the process group (SIGSTOP) and continues it later
(SIGCONT). While it is stopped the clients' calls wait in the kernel's socket
buffers; continued, it reads them all and answers each `latency` later —
everyone at once, as the story says. It records nothing: locksim's history
names the service in its header and writes no line of its own for it.

Usage: python3 service_process.py LATENCY_NS
Prints {"port": P} on stdout once it listens; then one JSON line per call
in, {"id": ...}, and the same {"id": ...} back after the latency.
Standard library only: it runs apart from the driver's modules.
"""
import asyncio
import json
import sys


async def serve(latency_s: float) -> None:
    loop = asyncio.get_running_loop()

    async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        def answer(call_id) -> None:
            if not writer.is_closing():
                writer.write((json.dumps({"id": call_id}) + "\n").encode())

        while line := await reader.readline():
            # A timer per call: a call read after a stall is answered latency after it was read.
            loop.call_later(latency_s, answer, json.loads(line)["id"])
        writer.close()

    server = await asyncio.start_server(on_connection, "127.0.0.1", 0)
    print(json.dumps({"port": server.sockets[0].getsockname()[1]}), flush=True)
    async with server:
        await server.serve_forever()


def main() -> None:
    asyncio.run(serve(int(sys.argv[1]) / 1e9))


if __name__ == "__main__":
    main()
