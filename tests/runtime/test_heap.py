"""Memory that threads freed is given back to the system (`judge.runtime.heap`)."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from judge.runtime import heap

THREADS_FREE_THEIR_MEMORY = textwrap.dedent("""
    import sys, threading
    from judge.runtime.heap import give_back

    def resident():
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) // 1024

    start = resident()
    together = threading.Barrier(8)
    survivors = []

    def work():
        held = [bytes(600 + n * 7919 % 2400) for n in range(8000)]  # past the small-object heap
        survivors.append(held[::50])  # a few blocks stay, as a mail's kept objects do
        together.wait()  # all at once: each thread in an arena of its own
        del held

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    freed = resident() - start
    if "give back" in sys.argv:
        give_back()
    print(freed, resident() - start)
""")


def resident_after_threads(*args: str) -> tuple[int, int]:
    out = subprocess.run([sys.executable, "-c", THREADS_FREE_THEIR_MEMORY, *args], capture_output=True,
                         text=True, check=True).stdout
    freed, after = out.split()
    return int(freed), int(after)


@pytest.mark.skipif(heap._trim() is None, reason="a C library without malloc_trim keeps its pages")
def test_memory_freed_by_threads_goes_back_to_the_system():
    kept, _ = resident_after_threads()
    assert kept > 40  # MB: what the threads freed stays resident by itself
    _, after = resident_after_threads("give back")
    assert after < kept / 4


def test_giving_back_twice_changes_nothing():
    heap.give_back()
    heap.give_back()


def test_after_work_the_heap_is_given_back_at_most_once_in_its_spacing():
    given: list[float] = []
    spacing = heap.Spacing(every=10.0, act=lambda: given.append(now))
    for now in (100.0, 101.0, 109.9, 110.0, 115.0, 130.0):
        spacing.after_work(now)
    assert given == [100.0, 110.0, 130.0]
