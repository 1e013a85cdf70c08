package org.quire.benchmarks;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

import com.sun.management.OperatingSystemMXBean;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Where a job's time to its first barrier goes, for {@code benchmarks/startup-phases.sh}: every rank
 * notes four wall-clock instants, rank 0 prints each phase's latest end over the ranks, in
 * milliseconds after {@code args[0]} (the epoch milliseconds at which the launching command
 * started):
 *
 * <pre>
 * phase=jvm_started ...   the JVM's own start time (launcher start-up and the spawning of the ranks before it)
 * phase=main_entered ...  JVM boot, the agent's premain and loading the main class
 * phase=init_returned ... Quire.init: the engine's classes, its initialisation and the rendezvous
 * phase=first_barrier ... the first barrier over the new world
 * </pre>
 *
 * Each line also gives the earliest rank, which shows how far the ranks' starts were spread, and the
 * median over the ranks of the CPU time each rank's process had used by then: on a machine with
 * fewer cores than ranks, the CPU the ranks need, not their waiting, sets the wall time.
 */
public final class StartupPhases {

    private static final String[] PHASES = {"jvm_started", "main_entered", "init_returned", "first_barrier"};

    private StartupPhases() {
    }

    public static void main(String[] args) {
        long mainEntered = System.currentTimeMillis();
        OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
        long mainEnteredCpu = os.getProcessCpuTime();
        long jvmStarted = ManagementFactory.getRuntimeMXBean().getStartTime();
        try (Job job = Quire.init(args)) {
            long initReturned = System.currentTimeMillis();
            long initReturnedCpu = os.getProcessCpuTime();
            Communicator world = job.world();
            world.barrier();
            long firstBarrier = System.currentTimeMillis();
            long firstBarrierCpu = os.getProcessCpuTime();
            long launched = Long.parseLong(job.arguments()[0]);
            ByteBuffer mine = ByteBuffer.allocate(2 * PHASES.length * Long.BYTES);
            mine.asLongBuffer().put(new long[] {jvmStarted, mainEntered, initReturned, firstBarrier,
                0, mainEnteredCpu / 1_000_000, initReturnedCpu / 1_000_000, firstBarrierCpu / 1_000_000});
            byte[][] all = world.gather(mine.array(), 0);
            if (world.rank() != 0) {
                return;
            }
            for (int phase = 0; phase < PHASES.length; phase++) {
                long[] ends = new long[all.length];
                long[] cpu = new long[all.length];
                for (int rank = 0; rank < all.length; rank++) {
                    ends[rank] = ByteBuffer.wrap(all[rank]).getLong(phase * Long.BYTES) - launched;
                    cpu[rank] = ByteBuffer.wrap(all[rank]).getLong((PHASES.length + phase) * Long.BYTES);
                }
                Arrays.sort(ends);
                Arrays.sort(cpu);
                System.out.printf("phase=%s ranks=%d earliest_ms=%d latest_ms=%d cpu_ms_by_then=%d%n", PHASES[phase],
                        all.length, ends[0], ends[ends.length - 1], cpu[cpu.length / 2]);
            }
        }
    }
}
