"""On the board: the live heap, after a collection (make size)."""

import gc


def measure(label):
    gc.collect()
    print("MEM", label, gc.mem_alloc(), gc.mem_free())
