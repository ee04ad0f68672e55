#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The system calls of a systemd SystemCallFilter= group, and a command run
# under that filter as systemd would run it (tests/live/faults_service.sh).
#
#   syscall_filter.py list @system-service
#       the group's system calls, nested groups expanded, one a line, as
#       systemd-analyze syscall-filter gives them
#   syscall_filter.py run @system-service EPERM CMD [ARGS...]
#       exec CMD with a seccomp filter allowing the group, every other
#       system call failing with that errno (SystemCallErrorNumber=),
#       native architecture only (SystemCallArchitectures=native)
#
# Needs python3-seccomp, which Debian installs for /usr/bin/python3.
import errno
import os
import subprocess
import sys


def expand(group, seen=None):
    """The names in group, its nested @groups expanded."""
    seen = set() if seen is None else seen
    if group in seen:
        return set()
    seen.add(group)
    out = subprocess.run(["systemd-analyze", "syscall-filter", group],
                         check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        # the group's own name starts the listing; members are indented
        if not line.startswith(" "):
            continue
        item = line.strip()
        if not item or item.startswith("#"):
            continue
        if item.startswith("@"):
            names |= expand(item, seen)
        else:
            names.add(item)
    return names


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        for name in sorted(expand(sys.argv[2])):
            print(name)
        return 0
    if len(sys.argv) >= 5 and sys.argv[1] == "run":
        import seccomp
        err = getattr(errno, sys.argv[3])
        f = seccomp.SyscallFilter(seccomp.ERRNO(err))
        for name in sorted(expand(sys.argv[2])):
            try:
                f.add_rule(seccomp.ALLOW, name)
            except (ValueError, RuntimeError):
                pass  # not a system call of this architecture
        f.load()
        os.execvp(sys.argv[4], sys.argv[4:])
    print(__doc__ or "usage: see the top of " + sys.argv[0], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
