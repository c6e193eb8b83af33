# SPDX-License-Identifier: GPL-2.0
#
# Turn a boot log (dmesg) into RESULT lines.  Each FTRACE_STARTUP_TEST
# selftest ("Testing tracer function: PASSED") is one test; the event
# selftests ("Testing event foo: OK", hundreds of them) count as one test per
# pass over the events; each top-level KUnit suite ("ok 1 ftrace_mux") is one.
# A selftest whose verdict comes lines later ("Testing dynamic ftrace ops #1:"
# ... "(3 3 5 0 1207126) PASSED", or a lone "OK" after other messages) is
# resolved when the verdict arrives.
function res(name, ok) { printf "RESULT boot/%s %s\n", name, ok ? "PASS" : "FAIL" }
function verdict(name, v) {
	if (name ~ /^event / || name ~ /^all events$/) {
		ev_total++
		if (v != "OK") { ev_bad++; print "  event selftest failed: " name ": " v }
		return
	}
	if (v ~ /^SKIPPED/) return
	gsub(/[ \t#]+/, "_", name)
	res("selftest:" name, v == "PASSED" || v == "OK")
}
{ sub(/^\[[ 0-9.]*\] /, ""); sub(/^[a-z_]+: Testing /, "Testing ") }
/^Testing .*:/ {
	name = $0; sub(/^Testing /, "", name); sub(/:[^:]*$/, "", name)
	v = $0; sub(/.*: */, "", v); sub(/ *$/, "", v)
	if (v == "") { pending = name; next }
	if (pending != "") { verdict(pending, "no verdict"); pending = "" }
	verdict(name, v)
	next
}
# Other messages may land between a test's name and its verdict.
pending != "" && /(^| )(PASSED|FAILED!?|SKIPPED|OK)$/ {
	v = $NF; verdict(pending, v); pending = ""; next
}
/^Running tests again, along with the function tracer/ {
	res("event-selftests", ev_bad == 0 && ev_total > 0); ev_total = ev_bad = 0; next
}
/^KTAP version|^TAP version/ { kunit = 1; next }
kunit && /^(not )?ok [0-9]+ / {
	ok = ($1 == "ok"); name = ok ? $3 : $4
	res("kunit:" name, ok)
	next
}
END {
	if (pending != "") verdict(pending, "no verdict")
	if (ev_total > 0) res("event-selftests-with-function", ev_bad == 0)
}
