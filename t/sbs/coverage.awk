# coverage.awk: the bytes each row's I/O touched once and more than once,
# from figures.awk's events (ROW FILE OFFSET +1/-1) sorted by row, file
# and offset. Writes "ROW<tab>cover=N" (touched at least once) and
# "ROW<tab>twice=N" (touched more than once).
BEGIN { FS = "\t" }
$1 != r {
	if (r != "") { printf "%s\tcover=%.0f\n%s\ttwice=%.0f\n", r, once + more, r, more }
	r = $1; f = ""; once = more = 0
}
$2 != f { f = $2; depth = 0 }
{
	if (depth == 1) once += $3 - at
	else if (depth > 1) more += $3 - at
	depth += $4; at = $3
}
END { if (r != "") printf "%s\tcover=%.0f\n%s\ttwice=%.0f\n", r, once + more, r, more }
