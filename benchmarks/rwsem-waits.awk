# Reads `perf script -F comm,tid,time,event,ip,sym` of lock:contention_begin/contention_end with call
# chains and prints "WAITS MS": how often threads whose name matches the variable `comm` (awk -v
# comm=REGEX) waited for an inode's rwsem in a down_write called by ext4_buffered_write_iter (one
# buffered write into a file another writer holds), and the time from each such wait to the same
# thread's contention_end. Used by shared-file-lock.sh and sion-write-lock.sh.
$1 ~ comm && $4 == "lock:contention_begin:" { tid = $2; t = $3 + 0; inside = 1; found = 0; next }
$1 ~ comm && $4 == "lock:contention_end:" {
  if ($2 in start) { waited += $3 - start[$2]; delete start[$2] }
  inside = 0; next }
inside && / ext4_buffered_write_iter$/ && previous ~ / down_write$/ { found = 1 }
inside { previous = $0 }
inside && /^$/ { if (found) { hits++; start[tid] = t } inside = 0 }
END { printf "%d %.0f\n", hits, waited * 1000 }
