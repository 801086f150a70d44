"""Batches made whole inside a parallel ``map``'s workers.

When the stages under a ``batch`` are row-by-row (maps, ``project``, ``rename``) and one of
the maps has workers, each worker makes a whole batch: it reads its rows (by index, when
the stage underneath is a source whose reads are pure: files, arrays), transforms them
under their row keys and stacks them, and hands back one finished batch. The training
process touches each batch once instead of every row at every stage. Why: with the
stages in the training process, every row crossed several threads, each crossing waited
for the interpreter lock the training step holds (up to the 5 ms switch interval), and
the training loop waited for data on a 2-core machine.

Over a pure source the workers also run on across epochs (as MindSpore's pipeline does):
when an epoch's last batch is handed out, the next epoch's first batches are already
being made, so the loop does not wait at every epoch's start.
"""
from . import config, row_key
from .engine import stack_columns
from .operations import MapDataset
from .workers import ordered_map

__all__ = ["BatchesInWorkers"]


class BatchesInWorkers:
    def __init__(self, source, stages, names, workers, processes):
        self.maker = _BatchMaker(source, stages, names)
        self.workers, self.processes = workers, processes
        self.stream = None

    @property
    def reads_in_worker(self):
        return self.maker.reads_in_worker

    @classmethod
    def plan(cls, child):
        """The plan for a batch over ``child``, or None when its batches are better made
        in the training process (no parallel map under it, or user code that must run
        where its map said)."""
        stages, node = [], child
        while node._row_by_row():
            stages.append(node)
            node = node.children[0]
        maps = [s for s in stages if isinstance(s, MapDataset)]
        parallel = [m for m in maps if m.num_parallel_workers > 1]
        if not parallel:
            return None
        processes = any(m.python_multiprocessing for m in parallel)
        for m in maps:
            # user code runs only where its map allows: in workers at all, and in another
            # process only if it asked for processes
            if not m._may_run_in_workers() or (processes and not m.python_multiprocessing
                                                and not m._library_only()):
                return None
        return cls(node, stages[::-1], child._columns(),
                   max(m.num_parallel_workers for m in parallel), processes)

    # ---- in the training process --------------------------------------------------------
    def batches(self, epoch, batch_size, drop_remainder):
        stream = self.stream
        if stream is None or not stream.starts(epoch):
            self.close()
            stream = self.stream = _Stream(self.maker, self.workers, self.processes, epoch,
                                           batch_size, drop_remainder)
        finished = False
        try:
            yield from stream.take(epoch)
            finished = True
        finally:
            if not finished or not self.reads_in_worker:
                self.close()        # broken off, or its source is read here: no run-on

    def close(self):
        stream, self.stream = self.stream, None
        if stream is not None:
            stream.close()


class _BatchMaker:
    """What a worker needs to make a batch (and nothing that refers back to the stream, so
    a dropped pipeline's workers stop at once)."""

    def __init__(self, source, stages, names):
        self.source, self.stages, self.names = source, stages, names
        self.reads_in_worker = getattr(source, "reads_in_workers", False)

    # ---- in the training process --------------------------------------------------------
    def tasks(self, epoch, batch_size, drop_remainder):
        """(epoch, first position, items) for each batch of ``epoch``."""
        items = iter(self.source._indices(epoch) if self.reads_in_worker else
                     self.source._epoch(epoch))
        first = 0
        while True:
            group = []
            for item in items:
                group.append(item)
                if len(group) == batch_size:
                    break
            if not group or (len(group) < batch_size and drop_remainder):
                return
            yield epoch, first, group
            first += len(group)

    # ---- in a worker --------------------------------------------------------------------
    def __call__(self, task):
        """One batch: ``(epoch, columns)``."""
        epoch, first, items = task
        rows = []
        for position, item in enumerate(items, first):
            row = self.source._row(item) if self.reads_in_worker else item
            with row_key.transforming((epoch, position)):
                for stage in self.stages:
                    row = stage._transform_row(row)
            rows.append(row)
        return epoch, stack_columns(rows, self.names)


class _Stream:
    """Batches of consecutive epochs from one set of workers, in order, tagged by epoch."""

    def __init__(self, maker, workers, processes, first_epoch, batch_size, drop_remainder):
        self.next_epoch, self.pending = first_epoch, None
        tasks = self._tasks(maker, first_epoch, batch_size, drop_remainder)
        depth = max(2 * workers, config.get_prefetch_size() // batch_size)
        self.results = ordered_map(maker, tasks, workers, depth, processes, group=1)

    @staticmethod
    def _tasks(maker, epoch, batch_size, drop_remainder):
        while True:
            count = 0
            for task in maker.tasks(epoch, batch_size, drop_remainder):
                count += 1
                yield task
            if not count or not maker.reads_in_worker:
                return
            epoch += 1

    def starts(self, epoch):
        return self.next_epoch == epoch

    def take(self, epoch):
        self.next_epoch = None               # in use; usable again only if read to the end
        while True:
            item, self.pending = self.pending, None
            if item is None:
                item = next(self.results, None)
                if item is None:
                    break
            tagged, columns = item
            if tagged != epoch:
                self.pending = item          # the next epoch's first batch, made ahead
                break
            yield columns
        self.next_epoch = epoch + 1

    def close(self):
        self.results.close()
