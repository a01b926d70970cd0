# The warm Python of a seat's zygote (croupier_sandbox::zygote::python): started once per seat
# as `python3 -c <this file> <script>` with the zygote's socket at descriptor 3 and a pipe to
# the zygote at 4, it imports what the bot's .py files import of the modules bots commonly
# import (numpy too when one of them mentions it), then serves one request per move: it forks,
# and the child runs the script as `__main__` exactly as `python3 <script> <args...>` would
# (fresh globals, the move's argv, stdio and cwd, the interpreter's own exit handling). This
# process never runs bot code: it forks, waits and reports. Requests:
# `<cpu seconds>\0<program>\0<script>\0<arg>...` with the move's stdin, stdout and stderr as
# three descriptors; answers: `ready` once, then per request the child's `<pid>\n` on the pipe
# and `exit <wait status> <cpu us> <max rss KiB>` on the socket.
import os
import sys

# Modules the interpreter loaded before this file imported any (a file of the bot cannot
# shadow these in a cold move either; it can every other, see `_child`).
_STARTED_WITH = set(sys.modules)


def _preload(script):
    import importlib

    # Cheap to import once and common in bots, imported here only when a .py file of the bot
    # imports it (a module no move uses would only make every fork dearer); the heavier rarely
    # used ones (dataclasses and inspect, threading, pathlib, argparse) are left to the moves.
    common = (
        "abc array bisect collections copy datetime enum functools heapq io itertools json "
        "math operator random re string struct time typing"
    ).split()
    imported, numpy = _imports(os.path.dirname(script))
    names = [name for name in common if name in imported]
    if numpy:
        names.append("numpy")
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:
            pass


def _imports(top, budget=400):
    """The top-level module names the .py files under `top` import, and whether one of them
    mentions numpy (the first `budget` files, 1 MiB of each)."""
    import re

    statement = re.compile(rb"^[ \t]*(?:from[ \t]+(\w+)|import[ \t]+([\w. \t,]+))", re.M)
    names, numpy = set(), False
    for folder, _dirs, files in os.walk(top):
        for name in files:
            if not name.endswith(".py"):
                continue
            budget -= 1
            if budget < 0:
                return names, numpy
            try:
                with open(os.path.join(folder, name), "rb") as f:
                    text = f.read(1 << 20)
            except OSError:
                continue
            numpy = numpy or b"numpy" in text
            for found in statement.finditer(text):
                for part in (found.group(1) or found.group(2)).split(b","):
                    words = part.split()
                    if words:
                        names.add(words[0].split(b".")[0].decode("ascii", "replace"))
    return names, numpy


def _serve():
    import gc
    import resource
    import socket

    script = sys.argv[1]
    _preload(script)
    # The script compiled once, as it is now: a move whose script has the same bytes runs this
    # code object (compiling in each forked child costs more than all the rest of its start).
    # The compiler only parses; nothing of the script runs here.
    try:
        with open(script, "rb") as f:
            source = f.read()
        compiled = (source, compile(source, script, "exec", dont_inherit=True))
    except Exception:
        compiled = None
    cwd = os.getcwd()
    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if nofile == resource.RLIM_INFINITY or nofile > 1 << 16:
        nofile = 1 << 16
    libc = _libc()
    if libc is not None:
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: the moves cannot read or write it
    sock = socket.socket(fileno=3)
    # Top-level names a file of the bot could shadow (a `json.py` beside the script): those
    # are dropped from the child's modules when the bot's folder holds one.
    preloaded = {n.partition(".")[0] for n in sys.modules} - {
        n.partition(".")[0] for n in _STARTED_WITH
    }
    gc.collect()
    gc.freeze()  # the objects made so far are never scanned again: fewer copied pages
    sock.send(b"ready")
    while True:
        msg, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 4)
        if not msg and not fds:
            os._exit(0)
        fields = msg.decode("utf-8", "surrogateescape").split("\0")
        if len(fds) != 3 or len(fields) < 3:
            for fd in fds:
                os.close(fd)
            sock.send(b"bad")
            continue
        pid = os.fork()
        if pid == 0:
            try:
                for target, fd in enumerate(fds):
                    os.dup2(fd, target)
                os.closerange(3, nofile)
                cpu = max(int(fields[0]), 1)
                resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
                if libc is not None:
                    libc.prctl(4, 1, 0, 0, 0)  # an ordinary, dumpable process again
                os.chdir(cwd)
            except BaseException:
                os._exit(126)
            return fields[1], fields[2], fields[3:], preloaded, compiled
        for fd in fds:
            os.close(fd)
        # The child's pid goes down the pipe at descriptor 4, which the zygote reads only when
        # this process is gone before it answered (it then waits for the child itself): no
        # wake-up of the zygote per move for it.
        os.write(4, b"%d\n" % pid)
        _, status, usage = os.wait4(pid, 0)
        cpu_us = round((usage.ru_utime + usage.ru_stime) * 1e6)
        sock.send(b"exit %d %d %d" % (status, cpu_us, usage.ru_maxrss))


def _libc():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except Exception:
        return None


def _child(program, script, args, preloaded, compiled):
    import builtins
    import importlib.machinery
    import types

    folder = os.path.dirname(os.path.realpath(script))
    try:
        present = os.listdir(folder)
    except OSError:
        present = []
    for entry in present:
        name = entry[:-3] if entry.endswith(".py") else entry
        if name in preloaded and (
            entry.endswith(".py") or os.path.exists(os.path.join(folder, entry, "__init__.py"))
        ):
            for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[loaded]
    # A generator not imported yet is seeded from the OS when the move imports it.
    random = sys.modules.get("random")
    if random is not None:
        random.seed()
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        try:
            numpy.random.seed()
        except Exception:
            pass
    sys.argv = [script, *args]
    sys.orig_argv = [program, script, *args]
    sys.path[0] = folder
    try:
        with open(script, "rb") as f:
            source = f.read()
    except OSError as e:
        sys.stderr.write(f"{program}: can't open file {script!r}: [Errno {e.errno}] {e.strerror}\n")
        sys.stderr.flush()
        raise SystemExit(2)
    main = types.ModuleType("__main__")
    main.__dict__.update(
        __file__=script,
        __cached__=None,
        __builtins__=builtins,
        __loader__=importlib.machinery.SourceFileLoader("__main__", script),
        __spec__=None,
        __package__=None,
        __annotations__={},
    )
    sys.modules["__main__"] = main
    try:
        if compiled is not None and compiled[0] == source:
            code = compiled[1]
        else:
            code = compile(source, script, "exec", dont_inherit=True)
        del source, compiled
        exec(code, main.__dict__)
        status = 0
    except SystemExit as e:
        status = _exit_status(e)
    except BaseException as e:
        # As the interpreter reports an uncaught exception, without this function's frame.
        e.__traceback__ = e.__traceback__.tb_next
        sys.excepthook(type(e), e, e.__traceback__)
        status = -2 if isinstance(e, KeyboardInterrupt) else 1
    _finish(status)


def _exit_status(e):
    # The interpreter's rule for an uncaught SystemExit.
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(f"{code}\n")
    except Exception:
        pass
    return 1


def _finish(status):
    # What the interpreter does at exit that a program can see: wait for its threads, run its
    # atexit functions, flush stdout (status 120 if that fails) and stderr. The teardown of
    # every object is skipped: it would copy most of the warm process's pages for nothing.
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException:
            pass
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except Exception:
            if stream is sys.stdout and status == 0:
                status = 120
    if status == -2:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        status = 130
    os._exit(status)


_child(*_serve())
