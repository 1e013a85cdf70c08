#!/usr/bin/env bash
# Prints the conditions of a benchmark run as Markdown bullet points: date, machine, load,
# memory, the file system holding DIRECTORY, and the JDK. Sourced or run by the benchmark scripts.
#   benchmarks/conditions.sh DIRECTORY
set -euo pipefail
directory=${1:?usage: conditions.sh DIRECTORY}
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "- machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), nproc $(nproc), $(free -g | awk '/^Mem:/ {print $2}') GiB memory, kernel $(uname -r)"
echo "- load average at start (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- target: $(df -hT "$directory" | awk 'NR==2 {print $1 ", " $2 ", " $3 " (" $5 " free)"}'), mounted $(findmnt -no OPTIONS --target "$directory"), block size $(stat -f -c %S "$directory")"
echo "- JDK: $(java -version 2>&1 | head -2 | tail -1)"
