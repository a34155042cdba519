# compiler_wrapper.sh: the body that simfab-cc, simfab-cxx and simfab-fc share (they set `compiler`,
# `prefix` and `link_flags`, then source this file with the user's arguments). It runs
#   compiler prefix ARGS [link_flags]
# adding link_flags only when linking: none of -c, -S, -E, -M, -MM is given and some operand (a
# file) is, so `simfab-cc -v` or `--version` lets the compiler answer. -fPIE/-fpie become
# -fPIC/-fpic and -pie/-no-pie are dropped (the output is a shared object). Options of its own:
#   --showme   print the command that would run, and exit 0
#   -v         print the command before running it (and pass -v on to the compiler)
link=1
showme=0
verbose=0
args=()
for arg in "$@"; do
  case "$arg" in
    --showme) showme=1; continue ;;
    -c|-S|-E|-M|-MM) link=0 ;;
    -v) verbose=1 ;;
    # A build system's position-independent-executable flags (CMake's POSITION_INDEPENDENT_CODE
    # appends -fPIE after our -fPIC): code for a shared object must be -fPIC, and it is no PIE.
    -fPIE) arg=-fPIC ;;
    -fpie) arg=-fpic ;;
    -pie|-no-pie) continue ;;
  esac
  args+=("$arg")
done
has_operand=0
for arg in "${args[@]}"; do [[ "$arg" != -* ]] && has_operand=1; done
[[ $has_operand -eq 0 ]] && link=0

# A compact layout for the copies simfab makes of the program, one per rank (src/online/copy_linker.hpp):
# without separate code pages and RELRO, a small program is two pages (code and read-only data; all
# writable data), so a rank's private copy of it is one page, not the three or four of the default
# layout. Neither changes what the program does.
link_flags+=(-Wl,-z,noseparate-code -Wl,-z,norelro)

# A user who allows undefined symbols (-Wl,--unresolved-symbols=..., -Wl,-z,undefs) gets them: the
# program links, and simfab refuses a missing function when it loads the program instead.
for arg in "${args[@]}"; do
  case "$arg" in
    -Wl,--unresolved-symbols=*|-Wl,-z,undefs)
      kept=()
      for flag in "${link_flags[@]}"; do [[ "$flag" != -Wl,--no-undefined ]] && kept+=("$flag"); done
      link_flags=("${kept[@]}") ;;
  esac
done

command=("${compiler[@]}" "${prefix[@]}" "${args[@]}")
[[ $link -eq 1 ]] && command+=("${link_flags[@]}")
if [[ $showme -eq 1 || $verbose -eq 1 ]]; then
  shown=()
  for word in "${command[@]}"; do
    if [[ "$word" =~ ^[A-Za-z0-9_@%+=:,./-]+$ ]]; then shown+=("$word"); else shown+=("$(printf '%q' "$word")"); fi
  done
  echo "${shown[*]}"
fi
[[ $showme -eq 1 ]] && exit 0
exec "${command[@]}"
