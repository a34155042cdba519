"""Test OTF2 archives written by an independent writer: Debian's python3-otf2 (the OTF2 library's own
Python bindings), with the definitions Score-P writes (a COMM_LOCATIONS group of the MPI ranks,
COMM_GROUP communicators, MPI regions) and Score-P's collective byte counts.

Runs only under Debian's /usr/bin/python3 (python3-otf2 does not load in another interpreter).
Times are nanoseconds (timer resolution 10^9 ticks/s).

    a = Archive(dir, nranks)
    a.call(rank, "MPI_Send", t0, t1, lambda w, t: w.mpi_send(t, peer, a.world, tag, nbytes))
    a.close()            # dir/traces.otf2 is the anchor file
"""
import otf2

NS = 10 ** 9


class Archive:
    def __init__(self, directory, nranks, hosts=None):
        self.trace = otf2.writer.Writer(directory, timer_resolution=NS)
        d = self.trace.definitions
        machine = d.system_tree_node("machine")
        hosts = hosts or ["node0"]
        nodes = [d.system_tree_node(h, parent=machine) for h in hosts]
        self.locations = []
        for r in range(nranks):
            group = d.location_group(f"MPI Rank {r}", system_tree_parent=nodes[r % len(nodes)])
            self.locations.append(d.location("Master thread", group=group))
        self.writers = [self.trace.event_writer_from_location(l) for l in self.locations]
        d.group("MPI locations", group_type=otf2.GroupType.COMM_LOCATIONS, paradigm=otf2.Paradigm.MPI,
                members=self.locations)
        self.world = self.comm("MPI_COMM_WORLD", list(range(nranks)))
        self.self_comm = d.comm("MPI_COMM_SELF", group=d.group(
            "self", group_type=otf2.GroupType.COMM_SELF, paradigm=otf2.Paradigm.MPI, members=[]))
        self.regions = {}

    def comm(self, name, ranks, parent=None):
        """A communicator of these world ranks (in communicator rank order)."""
        d = self.trace.definitions
        group = d.group(name, group_type=otf2.GroupType.COMM_GROUP, paradigm=otf2.Paradigm.MPI, members=ranks)
        flags = otf2.CommFlag.CREATE_DESTROY_EVENTS if parent is not None else otf2.CommFlag.NONE
        return d.comm(name, group=group, parent=parent, flags=flags)

    def region(self, name):
        if name not in self.regions:
            mpi = name.startswith("MPI_")
            self.regions[name] = self.trace.definitions.region(
                name, paradigm=otf2.Paradigm.MPI if mpi else otf2.Paradigm.USER,
                region_role=otf2.RegionRole.FUNCTION)
        return self.regions[name]

    def enter(self, r, t, name):
        self.writers[r].enter(t, self.region(name))

    def leave(self, r, t, name):
        self.writers[r].leave(t, self.region(name))

    def call(self, r, name, t0, t1, *events):
        """Rank r in MPI call `name` from t0 to t1; each event(writer, t0) writes one record inside."""
        self.enter(r, t0, name)
        for e in events:
            e(self.writers[r], t0)
        self.leave(r, t1, name)

    def collective(self, r, name, t0, t1, op, comm, root, sent, received, *inner):
        """A blocking collective: MpiCollectiveBegin, `inner` events, MpiCollectiveEnd."""
        root = otf2.Undefined.UINT32 if root is None else root
        self.call(r, name, t0, t1, lambda w, t: w.mpi_collective_begin(t), *inner,
                  lambda w, t: w.mpi_collective_end(t, op, comm, root, sent, received))

    def close(self):
        self.trace.close()
