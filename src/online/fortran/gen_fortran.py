#!/usr/bin/env python3
"""Generates online mode's Fortran interface from <simfab/mpi.h> (issue 26), so it never drifts
from the C one:

  gen_fortran.py MPI_H BINDINGS_CPP MPIF_H

BINDINGS_CPP  one extern "C" `mpi_<name>_` per C function (gfortran's convention; the rules and
              the conversions are in fortran_support.hpp); the functions whose Fortran form
              differs from the C one are written by hand in src/online/abi/abi_fortran.cpp
              (HAND_WRITTEN below) and skipped here.
MPIF_H        every integer constant of mpi.h as an INTEGER PARAMETER, the Fortran-only constants
              (MPI_STATUS_SIZE, MPI_SOURCE, ..., the KINDs), the sentinels as COMMON block
              variables, and the types of the MPI functions. It is valid fixed form and free form
              (statements in columns 7-72, `!` comments), so `include 'mpif.h'` works in both and
              the `mpi` module is `include 'mpif.h'` inside a module.
"""
import os
import re
import sys

HAND_WRITTEN = {
    # Fortran callbacks and integer values (src/online/abi/abi_fortran_attrs.cpp)
    "MPI_Comm_create_keyval", "MPI_Type_create_keyval", "MPI_Win_create_keyval", "MPI_Keyval_create",
    "MPI_Comm_set_attr", "MPI_Type_set_attr", "MPI_Win_set_attr", "MPI_Attr_put",
    "MPI_Type_get_attr", "MPI_Win_get_attr",
    "MPI_Grequest_start",  # Fortran's callbacks take every argument by reference (not bound yet)
    "MPI_Init", "MPI_Init_thread", "MPI_Pcontrol",  # no argc/argv; Pcontrol has no IERROR
    "MPI_Comm_get_attr", "MPI_Attr_get",              # the attribute's value, not a pointer to it
    "MPI_Buffer_detach",                              # the buffer's address is not returned
    "simfab_shared_malloc", "simfab_shared_free", "simfab_sample_begin", "simfab_sample_end",
}
# The predefined attribute callbacks: Fortran subroutines (src/online/abi/abi_fortran_attrs.cpp)
# that programs pass to MPI_*_CREATE_KEYVAL, so mpif.h declares them EXTERNAL.
CALLBACKS = [f"MPI_{kind}{fn}" for kind in ("COMM_", "TYPE_", "WIN_", "")
             for fn in ("NULL_COPY_FN", "DUP_FN", "NULL_DELETE_FN")]
# C functions that are Fortran functions (not subroutines with IERROR): their Fortran type.
FUNCTIONS = {
    "MPI_Wtime": "DOUBLE PRECISION", "MPI_Wtick": "DOUBLE PRECISION",
    "MPI_Aint_add": "INTEGER(KIND=MPI_ADDRESS_KIND)", "MPI_Aint_diff": "INTEGER(KIND=MPI_ADDRESS_KIND)",
    "simfab_get_pstate": "INTEGER", "simfab_pstate_count": "INTEGER",
}
VALUE_TYPES = {"int", "double", "MPI_Comm", "MPI_Group", "MPI_Datatype", "MPI_Op", "MPI_Request", "MPI_Win",
               "MPI_Message", "MPI_Errhandler", "MPI_Info", "MPI_File", "MPI_Aint", "MPI_Offset", "MPI_Count"}
# void* arguments that are addresses to pass on as they are, not choice buffers.
ADDRESSES = {"baseptr", "location", "attribute_val"}
STATUS_COUNTS = ("count", "incount")


def prototypes(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for m in re.finditer(r"^(int|double|void|MPI_Aint)\s+(\w+)\(([^;]*?)\);", text, flags=re.M | re.S):
        ret, name, params = m.group(1), m.group(2), " ".join(m.group(3).split())
        if name in HAND_WRITTEN or "_c2f" in name or "_f2c" in name or name.endswith("_fn") or not (name.startswith("MPI_") or name.startswith("simfab_")
                                        or name.startswith("smpi_")):
            continue
        args = [] if params in ("void", "") else [p.strip() for p in params.split(",")]
        yield ret, name, args


def split_param(p):
    """'const int ranks[]' -> ('const int', 'ranks', is_array, pointer_depth)."""
    if p.endswith("[][3]"):  # MPI_Group_range_*'s triples: INTEGER RANGES(3, N) in Fortran
        return p[:-5].rsplit(None, 1)[0], p[:-5].rsplit(None, 1)[1], True, 0
    array = p.endswith("[]")
    if array:
        p = p[:-2].strip()
    m = re.match(r"(.*?)([\s*]+)(\w+)$", p)
    base, stars, name = m.group(1).strip(), m.group(2), m.group(3)
    return base, name, array, stars.count("*")


def binding(ret, name, args):
    """The C++ text of one Fortran binding."""
    params, call_args, before, after, lens = [], [], [], [], []
    names = [split_param(a)[1] for a in args]
    for a in args:
        base, pname, array, depth = split_param(a)
        plain = base.replace("const ", "").strip()
        if depth == 0 and not array and plain in VALUE_TYPES:
            params.append(f"{plain}* {pname}")
            call_args.append(f"*{pname}")
        elif plain == "MPI_Status" and (array or depth == 1):
            params.append(f"int* {pname}")
            if array:
                n = next(c for c in STATUS_COUNTS if c in names)
                before.append(f"FortranStatuses st_{pname}({pname}, *{n});")
            else:
                in_only = "true" if base.startswith("const") else "false"
                before.append(f"FortranStatus st_{pname}({pname}, {in_only});")
            call_args.append(f"st_{pname}.get()")
        elif plain == "char" and depth == 1 and not array:
            params.append(f"char* {pname}")
            lens.append(f"size_t {pname}_len")
            if base.startswith("const"):
                before.append(f"const std::string s_{pname} = f_string_in({pname}, {pname}_len);")
                call_args.append(f"s_{pname}.c_str()")
            else:
                call_args.append(f"{pname}_out")
                after.append(pname)  # wrapped in f_string_out below
        elif plain == "void" and depth == 1 and not array:
            params.append(f"void* {pname}")
            call_args.append(pname if pname in ADDRESSES else f"f_buf({pname})")
        elif a.endswith("[][3]"):
            params.append(f"int* {pname}")
            call_args.append(f"reinterpret_cast<int(*)[3]>({pname})")
        else:  # pointers and arrays of ints, handles, MPI_Aint, MPI_Count; user functions
            t = plain + "*" * depth + ("*" if array else "")
            params.append(f"{t} {pname}")
            call_args.append(pname)
    call = f"{name}({', '.join(call_args)})"
    lower = name.lower() + "_"
    body = ["  const FortranCallSite site_(__builtin_return_address(0));"] + ["  " + b for b in before]
    if ret in ("double", "MPI_Aint") or (ret == "int" and name in FUNCTIONS):
        sig = f'extern "C" {ret} {lower}({", ".join(params + lens)})'
        return sig + " {\n" + "\n".join(body + [f"  return {call};"]) + "\n}\n"
    if ret == "void":
        sig = f'extern "C" void {lower}({", ".join(params + lens)})'
        return sig + " {\n" + "\n".join(body + [f"  {call};"]) + "\n}\n"
    sig = f'extern "C" void {lower}({", ".join(params + ["int* ierr"] + lens)})'
    for out in after:  # an output string: the call runs inside f_string_out
        call = f"f_string_out({out}, {out}_len, [&](char* {out}_out) {{ return {call}; }})"
    body.append(f"  const int rc = {call};")
    if "index" in names:  # Waitany, Testany
        body.append("  f_index(rc, index);")
    if "array_of_indices" in names:
        body.append("  f_indices(rc, outcount, array_of_indices);")
    body.append("  f_set(ierr, rc);")
    return sig + " {\n" + "\n".join(body) + "\n}\n"


def constants(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for m in re.finditer(r"^#define\s+(MPI_\w+)\s+(?:\(\(\w+\)(-?\d+)\)|\((-?\d+)\)|(-?\d+))\s*$", text, flags=re.M):
        value = next(v for v in m.group(2, 3, 4) if v is not None)
        yield m.group(1), value


def fixed(line):
    assert len(line) <= 72, line
    return line


def mpif(text, functions):
    out = ["! mpif.h: simfab's Fortran MPI interface (generated by src/online/fortran/gen_fortran.py",
           "! from simfab's mpi.h; fixed and free form). Use simfab-fc to compile and link.",
           "! Handles are INTEGERs; constants are simfab's own values."]

    def param(name, value, kind="INTEGER"):
        out.append(fixed(f"      {kind} {name}"))
        out.append(fixed(f"      PARAMETER ({name}={value})"))

    for name, value in [("MPI_STATUS_SIZE", 6), ("MPI_SOURCE", 1), ("MPI_TAG", 2), ("MPI_ERROR", 3),
                        ("MPI_ADDRESS_KIND", 8), ("MPI_OFFSET_KIND", 8), ("MPI_COUNT_KIND", 8),
                        ("MPI_INTEGER_KIND", 4)]:
        param(name, value)
    for name, value in constants(text):
        param(name, value)
    out += ["! Sentinels: addresses that the bindings recognise.",
            "      INTEGER MPI_BOTTOM, MPI_IN_PLACE",
            "      INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)",
            "      INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE, 1)",
            "      COMMON /SIMFAB_F_BOTTOM/ MPI_BOTTOM",
            "      COMMON /SIMFAB_F_IN_PLACE/ MPI_IN_PLACE",
            "      COMMON /SIMFAB_F_ST_IGNORE/ MPI_STATUS_IGNORE",
            "      COMMON /SIMFAB_F_STS_IGNORE/ MPI_STATUSES_IGNORE",
            "      SAVE /SIMFAB_F_BOTTOM/, /SIMFAB_F_IN_PLACE/",
            "      SAVE /SIMFAB_F_ST_IGNORE/, /SIMFAB_F_STS_IGNORE/",
            "! The functions."]
    for name, kind in sorted(FUNCTIONS.items()):
        if name in functions:
            out.append(fixed(f"      {kind} {name.upper()}"))
            out.append(fixed(f"      EXTERNAL {name.upper()}"))
    out.append("! The predefined attribute callbacks (subroutines).")
    for name in CALLBACKS:
        out.append(fixed(f"      EXTERNAL {name}"))
    return "\n".join(out) + "\n"


def read_header(path):
    """The header's text with its local `#include "x.h"` parts (mpi_io.h, ...) put in place."""
    folder = os.path.dirname(path)
    return re.sub(r'^#include "([^"]+)".*$', lambda m: read_header(os.path.join(folder, m.group(1))),
                  open(path).read(), flags=re.M)


def main():
    mpi_h, bindings_cpp, mpif_h = sys.argv[1:4]
    text = read_header(mpi_h)
    protos = list(prototypes(text))
    code = ["// Generated by src/online/fortran/gen_fortran.py from include/simfab/mpi.h: do not edit.",
            "// The Fortran bindings of online mode (src/online/fortran/fortran_support.hpp).",
            "#include <simfab/mpi.h>", "", "#include <cstddef>", "#include <string>", "",
            '#include "online/fortran/fortran_support.hpp"', "",
            "using namespace simfab::online;", ""]
    code += [binding(*p) for p in protos]
    with open(bindings_cpp, "w") as f:
        f.write("\n".join(code))
    with open(mpif_h, "w") as f:
        f.write(mpif(text, {p[1] for p in protos}))


if __name__ == "__main__":
    main()
