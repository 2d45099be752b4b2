"""Two simulators over a real TCP socket on localhost: the link cable's bytes, the port, the CLI."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from link import frame

from host_tools.link.tcp import TcpPort, parse_address

ROOT = Path(__file__).resolve().parent.parent


def _sim(*args, save_dir):
    return subprocess.Popen(
        [sys.executable, "-m", "host_tools.simulator", "--save-dir", str(save_dir), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_simulators_play_a_scripted_match_to_the_end_over_localhost(tmp_path):
    common = ["--new", "--rules", "target=10", "--speed", "4", "--keys", "auto:match"]
    a = _sim("--link-listen", "0", *common, save_dir=tmp_path / "a")
    try:
        first = a.stdout.readline()
        assert first.startswith("link: listening on port "), first + a.stderr.read()
        port = int(first.split()[-1])
        b = _sim("--link", "127.0.0.1:%d" % port, *common, save_dir=tmp_path / "b")
        out_b, err_b = b.communicate(timeout=240)
        out_a, err_a = a.communicate(timeout=60)
    finally:
        a.kill()
    assert a.returncode == 0 and b.returncode == 0, err_a + err_b
    line_a = [x for x in out_a.splitlines() if x.startswith("link match:")]
    line_b = [x for x in out_b.splitlines() if x.startswith("link match:")]
    assert line_a and line_b, out_a + err_a + out_b + err_b
    # the same match, seen from the two seats: same seed, hands, scores and winner
    assert line_a[0].endswith("seat 0, over") and line_b[0].endswith("seat 1, over"), (line_a, line_b)
    assert line_a[0].rsplit(", seat", 1)[0] == line_b[0].rsplit(", seat", 1)[0]
    # each kept its own saves, in its own folder; a finished match leaves no game behind
    for d in (tmp_path / "a", tmp_path / "b"):
        assert (d / "linkstats.sav").exists() and not (d / "game.sav").exists()


def _pump(ports, until, timeout=5.0):
    end = time.monotonic() + timeout
    got = [b"" for _ in ports]
    while time.monotonic() < end:
        for i, p in enumerate(ports):
            data = p.read()
            if data:
                got[i] += data
        if until(got):
            return got
        time.sleep(0.01)
    raise AssertionError("timed out: %r" % (got,))


def _connected():
    """A listening TcpPort and one that called it, both connected (localhost)."""
    server = TcpPort(listen=0)
    client = TcpPort(connect=("127.0.0.1", server.listen_port))
    server.open()
    client.open()
    _pump((server, client), lambda g: server.connected and client.connected)
    return server, client


def test_the_tcp_port_carries_the_very_same_bytes_and_survives_a_dropped_connection():
    server, client = _connected()
    try:
        wire = frame.encode(b"\x16\x00\x01\x02\x68") * 3
        client.write(wire)
        got = _pump((server, client), lambda g: len(g[0]) >= len(wire))
        assert got[0] == wire
        client.close()  # the cable pulled
        _pump((server, client), lambda g: not server.connected)
        assert server.read() is None
        client.next_dial = 0  # plugged back: the caller dials again, the listener takes it
        _pump((server, client), lambda g: server.connected and client.connected)
        server.write(b"back")
        assert _pump((server, client), lambda g: g[1] == b"back")[1] == b"back"
        assert server.connections == 2 and client.connections == 2
    finally:
        client.shutdown()
        server.shutdown()


def test_bytes_written_with_nobody_connected_are_lost_like_on_an_unplugged_cable():
    server = TcpPort(listen=0)
    try:
        server.write(b"into the void")
        assert server.read() is None and not server.connected
    finally:
        server.shutdown()


def test_addresses_are_parsed_or_refused_with_a_message():
    assert parse_address("192.168.1.20:7600") == ("192.168.1.20", 7600)
    assert parse_address(":7600") == ("127.0.0.1", 7600)
    assert parse_address("7600") == ("127.0.0.1", 7600)
    for bad in ("host:port", "host:0", "host:70000"):
        with pytest.raises(ValueError):
            parse_address(bad)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--link-listen", "7600", "--link", "x:1"], "one simulator listens, the other calls it"),
        (["--link", "nowhere:port"], "give HOST:PORT"),
        (["--link", "127.0.0.1:1", "--speed", "0"], "--speed must be above 0"),
    ],
)
def test_link_options_are_checked(args, message, tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "host_tools.simulator", "--save-dir", str(tmp_path), "--keys", "", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and message in r.stderr, r.stderr


def test_a_peer_that_never_stops_sending_can_not_stall_one_read():
    from host_tools.link.tcp import READ_LIMIT

    server, client = _connected()
    try:
        client.write(b"\x55" * (4 * READ_LIMIT))
        got = b""
        for _ in range(500):
            client.read()  # (flushes what the socket could not take at once)
            data = server.read() or b""
            assert len(data) <= READ_LIMIT
            got += data
            if len(got) >= 4 * READ_LIMIT:
                break
            time.sleep(0.002)
        assert len(got) == 4 * READ_LIMIT
    finally:
        client.shutdown()
        server.shutdown()
