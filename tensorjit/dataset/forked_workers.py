"""Forked worker processes for a pipeline stage, read on the consumer's own thread.

Each worker gets the stage's function through the fork itself (lambdas and closures work;
only tasks and results are pickled) and a socket pair to the training process. Tasks go
round-robin, one in flight per worker, so the results come back in order by reading the
workers in turn. Why not ``ProcessPoolExecutor``: its manager and feeder threads in the
training process need the interpreter lock several times per result (every 64 KB read of
a pipe), and each time wait up to the 5 ms switch interval while the training step holds
it, which left the training loop waiting for batches the workers had long finished.

A worker ends when it is told to, when its socket closes, or when the training process is
gone (killed, or ended by ``os._exit`` without closing the pool): it never outlives it.
"""
import multiprocessing
import os
import pickle
import threading
import time
import traceback

__all__ = ["can_fork", "ForkedWorkers", "WorkerDied"]

PARENT_CHECK_SECONDS = 0.5


def can_fork():
    return "fork" in multiprocessing.get_all_start_methods()


class WorkerDied(RuntimeError):
    pass


class RemoteTraceback(Exception):
    """The worker's traceback, attached as the cause of the error it raised."""

    def __str__(self):
        return self.args[0]


class ForkedWorkers:
    def __init__(self, function, count):
        context = multiprocessing.get_context("fork")
        self.connections, self.processes = [], []
        parent = os.getpid()
        for k in range(count):
            ours, theirs = context.Pipe(duplex=True)
            process = context.Process(
                target=_serve, args=(function, theirs, list(self.connections) + [ours], parent),
                name=f"tensorjit-dataset-worker-{k}", daemon=True)
            process.start()
            theirs.close()
            self.connections.append(ours)
            self.processes.append(process)

    def send(self, worker, task):
        self.connections[worker].send(task)

    def receive(self, worker):
        """The next result of ``worker`` (raising what the function raised there)."""
        try:
            kind, value = self.connections[worker].recv()
        except (EOFError, OSError):
            process = self.processes[worker]
            process.join(1.0)
            raise WorkerDied(f"dataset worker process {process.pid} ended unexpectedly (exit "
                             f"code {process.exitcode}) while transforming rows") from None
        if kind == "ok":
            return value
        error, remote = value
        raise error from RemoteTraceback(remote)

    def close(self):
        for connection in self.connections:
            try:
                connection.send(None)
            except OSError:
                pass
            connection.close()            # a worker blocked writing a result gets EPIPE
        deadline = time.monotonic() + 2.0
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)


def _serve(function, connection, inherited, parent):
    for other in inherited:              # the training process's ends of every pipe
        other.close()
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True,
                     name="tensorjit-dataset-parent-watch").start()
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply = ("ok", function(task))
        except BaseException as exc:                  # reaches the consumer
            reply = ("error", (_portable(exc), traceback.format_exc()))
        try:
            connection.send(reply)
        except (OSError, pickle.PicklingError, TypeError, AttributeError) as exc:
            if reply[0] == "ok" and not isinstance(exc, OSError):
                reply = ("error", (TypeError(f"dataset worker: the result cannot be sent to "
                                             f"the training process: {exc}"), ""))
                connection.send(reply)
            else:
                return


def _portable(exc):
    """``exc`` if it survives pickling, else a RuntimeError that says what it was."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _exit_with_parent(parent):
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)
