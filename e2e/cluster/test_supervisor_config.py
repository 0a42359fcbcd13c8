"""What `make cluster` runs (scripts/cluster_supervisor.py, docs/SCALING.md): supervisord's configuration, read back
by supervisord's own parser, and the launcher's refusals. The cluster itself runs in test_supervised.py."""
from __future__ import annotations

import configparser
import shlex
import subprocess
import sys
from pathlib import Path

import cluster_supervisor
from cluster_support import ROOT


def layout(tmp_path: Path, processes: int = 3) -> cluster_supervisor.Layout:
    return cluster_supervisor.Layout(bin=Path("/opt/rk/refreshkit"), processes=processes, port=9000, run=tmp_path)


def test_the_configuration_runs_redis_the_servers_and_haproxy_each_restarted(tmp_path):
    conf = cluster_supervisor.write(layout(tmp_path), ["--web-root", "web", "--preset", "ios"])
    parsed = configparser.RawConfigParser()
    parsed.read(conf)
    programs = [s.removeprefix("program:") for s in parsed.sections() if s.startswith("program:")]
    assert programs == ["redis", "n1", "n2", "n3", "haproxy"]
    priorities = [int(parsed[f"program:{p}"]["priority"]) for p in programs]
    assert priorities == sorted(priorities) and priorities[0] < priorities[1] and priorities[-2] < priorities[-1]
    for name in programs:
        section = parsed[f"program:{name}"]
        assert section["autorestart"] == "true" and section["stopsignal"] == "TERM", name
        assert section["stdout_logfile"] == str(tmp_path / f"{name}.log")
    n2 = shlex.split(parsed["program:n2"]["command"])
    assert n2[:2] == ["/opt/rk/refreshkit", "serve"]
    assert n2[n2.index("--port") + 1] == "9002" and n2[n2.index("--node") + 1] == "n2"
    assert n2[n2.index("--store") + 1] == "redis://127.0.0.1:9100" and n2[n2.index("--public-port") + 1] == "9000"
    assert n2[-4:] == ["--web-root", "web", "--preset", "ios"]
    redis = shlex.split(parsed["program:redis"]["command"])
    assert redis[:3] == ["redis-server", "--port", "9100"] and redis[redis.index("--save") + 1] == ""
    assert parsed["supervisord"]["nodaemon"] == "true"
    haproxy = (tmp_path / "haproxy.cfg").read_text()
    assert "bind 0.0.0.0:9000" in haproxy and "server n3 127.0.0.1:9003" in haproxy
    assert "http-request set-header X-RefreshKit-Backend n1" in haproxy


def test_supervisord_reads_it(tmp_path):
    conf = cluster_supervisor.write(layout(tmp_path, 2), [])
    # supervisord's own parser (Debian's python3-supervisor), as `supervisord -c` reads it before it starts
    check = ("from supervisor.options import ServerOptions\n"
             "o = ServerOptions(); o.realize(['-c', %r])\n"
             "print(' '.join(p.name for g in o.process_group_configs for p in g.process_configs))") % str(conf)
    done = subprocess.run(["/usr/bin/python3", "-c", check], capture_output=True, text=True, timeout=20)
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.split()) == ["haproxy", "n1", "n2", "redis"]


def test_the_launcher_refuses_bad_numbers_clearly(tmp_path):
    for args, message in ((["--processes", "0", "--port", "8080"], "PROCESSES must be a positive number"),
                          (["--processes", "x", "--port", "8080"], "PROCESSES must be a positive number"),
                          (["--processes", "2", "--port", "65500"], "PORT must be a port number"),
                          (["--processes", "100", "--port", "8080"], "PROCESSES must be below 100")):
        done = subprocess.run([sys.executable, "scripts/cluster_supervisor.py", "--bin", "x", "--run",
                               str(tmp_path / "run"), *args], cwd=ROOT, capture_output=True, text=True, timeout=20)
        assert done.returncode != 0 and message in done.stderr, (args, done.stderr)
        assert not (tmp_path / "run").exists()


def test_with_tls_haproxy_terminates_it_from_one_private_file_and_the_servers_know_their_pages_are_https(tmp_path):
    (tmp_path / "cert.pem").write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    (tmp_path / "key.pem").write_text("-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n")
    run = tmp_path / "run"
    tls = cluster_supervisor.Layout(bin=Path("/opt/rk/refreshkit"), processes=2, port=9000, run=run,
                                    tls=(tmp_path / "cert.pem", tmp_path / "key.pem"))
    conf = cluster_supervisor.write(tls, [])
    pem = run / "balancer.pem"
    assert pem.stat().st_mode & 0o777 == 0o600
    assert pem.read_text().split("-----END CERTIFICATE-----\n")[1].startswith("-----BEGIN PRIVATE KEY-----")
    haproxy = (run / "haproxy.cfg").read_text()
    assert f"bind 0.0.0.0:9000 ssl crt {pem} alpn http/1.1" in haproxy
    assert "option forwardfor" in haproxy and "http-request del-header X-Forwarded-For" in haproxy
    parsed = configparser.RawConfigParser()
    parsed.read(conf)
    n1 = shlex.split(parsed["program:n1"]["command"])
    assert "--public-tls" in n1 and n1[n1.index("--trusted-proxy") + 1] == "127.0.0.1"
    assert "https://localhost:9000/" in cluster_supervisor.banner(tls, conf)
    plain = cluster_supervisor.write(layout(tmp_path / "plain"), [])
    assert "--public-tls" not in plain.read_text()
    done = subprocess.run([sys.executable, "scripts/cluster_supervisor.py", "--bin", "x", "--run", str(tmp_path / "r"),
                           "--processes", "2", "--port", "8080", "--tls-cert", str(tmp_path / "cert.pem")],
                          cwd=ROOT, capture_output=True, text=True, timeout=20)
    assert done.returncode != 0 and "--tls-cert and --tls-key go together" in done.stderr
