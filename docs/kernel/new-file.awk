# awk -v file=Documentation/PATH -f docs/kernel/new-file.awk PATCH
#
# Print the file that a git format-patch creates ("new file mode"), from
# its "+" lines: the build takes the guide's source from the series
# without a kernel tree.  Fails when the file is not created there or its
# line count differs from the hunk header's.
$0 == "diff --git a/" file " b/" file { infile = 1; next }
/^diff --git / { infile = 0 }
infile && /^@@ -0,0 \+1(,[0-9]+)? @@/ {
	want = 1
	if (match($0, /,[0-9]+ @@/))
		want = substr($0, RSTART + 1, RLENGTH - 4) + 0
	inhunk = 1
	next
}
inhunk && /^\+/ { print substr($0, 2); got++; if (got == want) inhunk = 0; next }
inhunk { inhunk = 0 }
END {
	if (!want) { print "new-file.awk: " file " is not created by the patch" > "/dev/stderr"; exit 1 }
	if (got != want) { print "new-file.awk: " file ": " got " lines, expected " want > "/dev/stderr"; exit 1 }
}
