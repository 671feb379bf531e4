"""The pathology cases of patho.c and the causes `pvomp-trace advise` must
give each (tests/trace/advise_test.py, bench/trace/advise.py).  The
co-runner case may come out as phantom (a member seen losing its CPU) or as
imbalance (the member sharing a CPU works longer on equal shares)."""
CASES = {
    "imbalance": ("imbalance",),
    "serial": ("serial",),
    "scheduling": ("scheduling",),
    "critical": ("critical",),
    "task_overhead": ("task_overhead",),
    "oversubscription": ("oversubscription",),
    "phantom": ("phantom", "imbalance"),
    "fork_join": ("fork_join",),
    "task_starvation": ("task_starvation",),
    "serial_between": ("serial",),
}
