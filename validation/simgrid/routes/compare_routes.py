#!/usr/bin/env python3
"""Link-by-link comparison of simfab's routes with SimGrid 3.32's, every host pair of a platform.

For each platform (default: every platforms/*.xml beside this script) it prints SimGrid's route
table with sg_route_table (Host::route_to for every ordered pair, a host to itself included) and
simfab's with `simfab platform routes FILE --all`, in the same format:

    <a> <b> <latency in us> : <link> <link> ...

and compares them line by line (the same links, in the same order, the same latency). The
lines are compared as sets: the tools list the pairs in different host orders.

usage: compare_routes.py [--simfab build/simfab] [--sg-tool PATH] [--show N] [--record]
                         [PLATFORM.xml ...]

Platforms too large to record (large/*.xml: SimGrid's examples/platforms/cluster_dragonfly.xml,
14400 routes) are compared when named: compare_routes.py validation/simgrid/routes/large/*.xml

--record: also write SimGrid's table of each platform to recorded/<platform>.txt, the tables the
unit test PlatformXmlSimgridRoutes (tests/unit/platform_xml_cluster_routes_test.cpp) asserts.

--sg-tool: a built sg_route_table (default: compiled from sg_route_table.cpp into a temporary
directory with g++ and -lsimgrid, Debian's libsimgrid-dev). Exit status 1 when a table differs or
a tool fails, 0 when every platform agrees.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def table(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(cmd) + " failed:\n" + out.stderr[-2000:])
    return out.stdout.splitlines()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--simfab", default="build/simfab")
    ap.add_argument("--sg-tool")
    ap.add_argument("--show", type=int, default=5, help="differing lines shown per platform")
    ap.add_argument("--record", action="store_true")
    ap.add_argument("platforms", nargs="*")
    args = ap.parse_args()
    platforms = args.platforms or sorted(glob.glob(os.path.join(HERE, "platforms", "*.xml")))
    with tempfile.TemporaryDirectory() as tmp:
        tool = args.sg_tool
        if not tool:
            tool = os.path.join(tmp, "sg_route_table")
            subprocess.run(["g++", "-O1", "-std=c++17", os.path.join(HERE, "sg_route_table.cpp"), "-o", tool,
                            "-lsimgrid"], check=True)
        failed = 0
        for platform in platforms:
            name = os.path.basename(platform)
            try:
                sg = table([tool, platform])
                if args.record:
                    stem = os.path.splitext(name)[0]
                    with open(os.path.join(HERE, "recorded", stem + ".txt"), "w") as f:
                        f.write("".join(line + "\n" for line in sg))
                sf = table([args.simfab, "platform", "routes", platform, "--all"])
            except RuntimeError as e:
                print(f"ERROR {name}: {e}")
                failed += 1
                continue
            only_sg = sorted(set(sg) - set(sf))
            only_sf = sorted(set(sf) - set(sg))
            if not only_sg and not only_sf and len(sg) == len(sf):
                print(f"ok    {name}: {len(sg)} routes agree link by link")
                continue
            failed += 1
            print(f"DIFF  {name}: {len(only_sg)} of {len(sg)} SimGrid routes differ")
            for line in only_sg[: args.show]:
                print("  simgrid: " + line)
            for line in only_sf[: args.show]:
                print("  simfab:  " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
