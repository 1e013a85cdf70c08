package org.quire.launcher.run;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * The heap limit of each worker JVM. By default a JVM may grow to a quarter of the machine's
 * memory, so N workers could together claim N/4 of it and meet the kernel's OOM killer instead of
 * a Java error; {@code quire run} therefore gives each of its N workers half of the machine's
 * memory divided by N (the other half is left for the JVMs' own overhead, the launcher and the
 * page cache), at least {@value #MIN_MIB} MiB and at most the JVM's own quarter. When N workers of
 * {@value #MIN_MIB} MiB would exceed that half, there is no default: {@code quire run} refuses.
 */
final class WorkerHeap {

    /** System property holding the machine's memory for {@code quire run --help}. */
    static final String MACHINE_MEMORY_PROPERTY = "quire.machine.memory";
    static final long MIN_MIB = 64;
    private static final long MIB = 1024 * 1024;
    /** JVM options that set a heap limit themselves: with one of them, quire adds none. */
    private static final List<String> HEAP_OPTIONS = List.of("-Xmx", "-XX:MaxHeapSize=", "-XX:MaxRAM=",
            "-XX:MaxRAMPercentage=", "-XX:MaxRAMFraction=");

    private WorkerHeap() {
    }

    /** Physical memory of this machine, or of its container when the JVM sees a limit. */
    static long machineMemory() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
    }

    /**
     * The default limit of each of {@code ranks} workers on a machine with {@code memory} bytes.
     *
     * @throws IllegalArgumentException when {@code ranks} workers of {@value #MIN_MIB} MiB each would
     *         together ask for more than half of {@code memory}: no default fits, the user must choose
     */
    static long defaultBytes(long memory, int ranks) {
        long floor = MIN_MIB * MIB;
        if ((double) ranks * floor > memory / 2) {
            throw new IllegalArgumentException("-n " + ranks + " workers of at least " + MIN_MIB + " MiB each need "
                    + describe(ranks * floor) + ", more than half of this machine's memory (" + describe(memory)
                    + "); choose their heap with --heap (e.g. --heap " + Math.max(1, memory / 2 / ranks / MIB)
                    + "m) or run fewer ranks");
        }
        return Math.max(floor, Math.min(memory / 4, memory / 2 / ranks));
    }

    /** True when {@code jvmOptions} already limit the heap. */
    static boolean setBy(List<String> jvmOptions) {
        return jvmOptions.stream().anyMatch(option -> HEAP_OPTIONS.stream().anyMatch(option::startsWith));
    }

    /** The {@code -Xmx} option for {@code bytes}, in whole MiB. */
    static String jvmOption(long bytes) {
        return "-Xmx" + Math.max(1, bytes / MIB) + "m";
    }

    /**
     * Parses a size as {@code -Xmx} takes it: a number with an optional k, m or g suffix.
     *
     * @throws IllegalArgumentException naming the value and the expected form
     */
    static long parse(String size) {
        String s = size.trim().toLowerCase(Locale.ROOT);
        long unit = switch (s.isEmpty() ? ' ' : s.charAt(s.length() - 1)) {
            case 'k' -> 1024;
            case 'm' -> MIB;
            case 'g' -> 1024 * MIB;
            default -> 1;
        };
        String digits = unit == 1 ? s : s.substring(0, s.length() - 1);
        try {
            long value = Long.parseLong(digits);
            if (value > 0 && value <= Long.MAX_VALUE / unit && value * unit >= MIB) {
                return value * unit;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException("--heap is '" + size + "'; expected a size of at least 1 MiB such as 512m"
                + " or 2g");
    }

    /** E.g. "512 MiB" or "23.4 GiB". */
    static String describe(long bytes) {
        return bytes >= 1024 * MIB ? String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * MIB))
                : bytes / MIB + " MiB";
    }
}
