# Reads two relax-run --memory-report outputs, without a plan then with
# one, and prints the reduction of the peak of live intermediate bytes:
# "peak N -> M bytes: P% lower".
/^memory: peak intermediate bytes: / {
  peak[FILENAME == ARGV[1] ? "off" : "on"] = $5
}
END {
  if (peak["off"] <= 0 || peak["on"] == "") {
    print "missing memory report"
    exit 1
  }
  printf "peak %d -> %d bytes: %d%% lower\n", peak["off"], peak["on"],
         100 * (peak["off"] - peak["on"]) / peak["off"]
}
