"""Host names of a SimGrid platform XML file, in SimGrid's order (which is also simfab's rank
order): <host> elements in document order, and each <cluster>'s hosts prefix + i + suffix for i in
its radical ("0-15", "0,2,4-7"). The harness writes hostfiles from them (rank r on host r, or r / k with k ranks per host)."""
import xml.etree.ElementTree as ET


def expand_radical(radical):
    out = []
    for part in radical.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-", 1)
            out.extend(range(int(lo), int(hi) + 1))
        elif part:
            out.append(int(part))
    return out


def host_names(path):
    names = []
    for elem in ET.parse(path).getroot().iter():
        if elem.tag == "host":
            names.append(elem.get("id"))
        elif elem.tag == "cluster":
            prefix, suffix = elem.get("prefix", ""), elem.get("suffix", "")
            names.extend(f"{prefix}{i}{suffix}" for i in expand_radical(elem.get("radical", "")))
    return names


def write_hostfile(platform, ranks, path, ranks_per_host=1):
    """Rank r on host floor(r / ranks_per_host), in the platform's host order."""
    hosts = host_names(platform)
    needed = -(-ranks // ranks_per_host)
    if len(hosts) < needed:
        raise ValueError(f"{platform} has {len(hosts)} hosts, fewer than the {needed} the {ranks} ranks need")
    with open(path, "w") as f:
        f.write("".join(hosts[r // ranks_per_host] + "\n" for r in range(ranks)))
