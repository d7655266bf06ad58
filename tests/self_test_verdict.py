"""The verdict of a repository checker's --self-test (tests/check-outside-refs.py,
tests/check-rooms.py): each planted file must give exactly one finding, no other file any."""


def verdict(got, want, allowed):
    """got: the findings ("FILE:..."); want: the planted files, sorted; allowed: words naming the
    files that must give none, for the message. Prints the findings and the verdict; returns the
    exit status (0 when the findings are exactly one per planted file)."""
    files = sorted({g.split(":")[0] for g in got})
    for g in got:
        print(g)
    if files != want:
        print(f"self-test: findings in {files}, expected exactly {want}")
        return 1
    if len(got) != len(want):
        print(f"self-test: {len(got)} findings, expected one per planted file")
        return 1
    print(f"self-test: one finding in each of the {len(want)} planted files, none in {allowed}")
    return 0
