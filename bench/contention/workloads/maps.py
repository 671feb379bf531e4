"""Which file a library this process mapped came from (/proc/self/maps)."""


def mapped(name):
    """The path of the first mapping whose file name contains `name`, or '-'."""
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split(None, 5)
            if len(parts) == 6 and name in parts[5].rsplit("/", 1)[-1]:
                return parts[5].strip()
    return "-"
