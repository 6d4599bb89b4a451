#!/usr/bin/env python3
"""Writes the expected fs_mark outputs used by FsMarkTextReporterTest.

Derived from the printf formats of print_run_info() and print_iteration_stats() in fs_mark 3.3's
fs_mark.c (stdout path), applied with Python's %-formatting, which follows C's printf for these
conversions (%f rounds the exact binary value half to even, as glibc does). Files/sec is a C float:
struct packs each value to its float32 value first. Run from this directory.
"""
import struct


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


SYNC = ["NO SYNC: Test does not issue sync() or fsync() calls.",
        "INBAND FSYNC: fsync() per file in write loop."]
DATE = "Tue Sep 22 10:00:00 2015"


def header(argv, threads, sync, dirs_line, name_len, rand_len, size, io, verbose):
    out = "\n# "
    for a in argv:
        out += " %s " % a
    out += "\n#\tVersion %s, %d thread(s) starting at %s" % ("3.3", threads, DATE + "\n")
    out += "#\tSync method: %s\n" % sync
    out += dirs_line
    out += ("#\tFile names: %d bytes long, (%d initial bytes of time stamp with %d random bytes"
            " at end of name)\n") % (name_len, name_len - rand_len, rand_len)
    out += "#\tFiles info: size %d bytes, written with an IO size of %d bytes per write\n" % (size, io)
    out += ("#\tApp overhead is time in microseconds spent in the test not doing file writing"
            " related system calls.\n")
    if verbose:
        out += "#\tAll system call times are reported in microseconds.\n\n"
        out += "%6s %12s %12s %12s %16s %26s %26s %26s %26s %26s %26s\n" % (
            "FSUse%", "Count", "Size", "Files/sec", "App Overhead",
            "CREAT (Min/Avg/Max)", "WRITE (Min/Avg/Max)",
            "FSYNC (Min/Avg/Max)", "SYNC (Min/Avg/Max)",
            "CLOSE (Min/Avg/Max)", "UNLINK (Min/Avg/Max)")
    else:
        out += "\n"
        out += "%6s %12s %12s %12s %16s\n" % ("FSUse%", "Count", "Size", "Files/sec", "App Overhead")
    return out


# Basic: fs_mark -d /mnt/a -d /mnt/b -t 4 -n 1000 -s 4096 -S 0 -L 3, no subdirectories.
basic = header(["fs_mark", "-d", "/mnt/a", "-d", "/mnt/b", "-t", "4", "-n", "1000", "-s", "4096",
                "-S", "0", "-L", "3"], 4, SYNC[0],
               "#\tDirectories:  no subdirectories used\n", 40, 24, 4096, 16384, False)
for use, count, fps, app in [(1, 4000, 12345.25, 123456), (2, 8000, 9876.75, 7890123),
                             (3, 12000, 100000.05, 0)]:
    basic += "%6u %12u %12u %12.1f %16u\n" % (use, count, 4096, f32(fps), app)
open("basic.txt", "w").write(basic)

# Verbose, -D 16 (time hash), -p 30 -r 10: ./fs_mark -v -D 16 -p 30 -r 10 -d /x -s 100 -w 64
verbose = header(["./fs_mark", "-v", "-D", "16", "-p", "30", "-r", "10", "-d", "/x", "-s", "100",
                  "-w", "64"], 1, SYNC[1],
                 "#\tDirectories:  %s across %d subdirectories with %d %s.\n" % (
                     "Time based hash between directories", 16, 180, "seconds per subdirectory"),
                 30, 10, 100, 64, True)
times = [3, 5, 90, 1, 2, 40, 100, 250, 123456789, 0, 0, 0, 1, 1, 7, 2, 4, 30]
verbose += ("%6u %12u %12u %12.1f %16u" + " %8u" * 18 + "\n") % tuple(
    [97, 1000, 100, f32(0.25), 5] + times)
open("verbose.txt", "w").write(verbose)

# Round robin header line: -D 8 -N 50
open("rr-dirs.txt", "w").write("#\tDirectories:  %s across %d subdirectories with %d %s.\n" % (
    "Round Robin between directories", 8, 50, "files per subdirectory"))
