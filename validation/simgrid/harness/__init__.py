"""The SimGrid side-by-side validation harness (validation/simgrid/run.py). Modules:
cases (the case list and its expansion), platforms (host names of a SimGrid XML platform),
traces (synthetic TI traces), tools (running and measuring smpirun, smpicc and simfab),
report (the table and RESULTS.md)."""
