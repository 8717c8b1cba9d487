"""The side-by-side generator: small jobs drawn from iolite's option table,
run through fio and iolite, compared on the I/O, the data and the exit
status (doc/sidebyside.md, "The generator")."""
