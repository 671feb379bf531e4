"""The pathology cases of patho.c and the causes `pvomp-trace advise` must
give each (tests/trace/advise_test.py, bench/trace/advise.py).  The
co-runner case is phantom: the member sharing a CPU with it works longer on
equal shares, and its run delay (run_delay records) says it was off its CPU
meanwhile."""
CASES = {
    "imbalance": ("imbalance",),
    "serial": ("serial",),
    "scheduling": ("scheduling",),
    "critical": ("critical",),
    "task_overhead": ("task_overhead",),
    "oversubscription": ("oversubscription",),
    "phantom": ("phantom",),
    "fork_join": ("fork_join",),
    "task_starvation": ("task_starvation",),
    "serial_between": ("serial",),
}
