package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.quire.launcher.QuireCommand;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Worker heap limits (default, --heap) and how a rank that runs out of memory is reported. */
class ResourceDefaultsIT {

    private static final Duration HANG = Duration.ofSeconds(90);

    @Test
    void eachWorkerGetsHalfTheMachinesMemoryDividedByTheRanks() throws Exception {
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "-n", "4", "-cp", QuireCommand.testWorkers(),
                "org.quire.launcher.workers.MemoryHog", "-1");
        assertEquals(0, result.exitCode(), result.toString());
        long expected = WorkerHeap.defaultBytes(WorkerHeap.machineMemory(), 4);
        List<Long> heaps = maxHeaps(result);
        assertEquals(4, heaps.size(), result.toString());
        for (long heap : heaps) {
            // maxMemory() is -Xmx rounded to the collector's alignment, less one survivor space.
            assertTrue(heap <= expected * 102 / 100 && heap > expected * 8 / 10, heap + " for a limit of " + expected);
        }
    }

    @Test
    void heapSetsTheLimitOfEveryWorker() throws Exception {
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "-n", "2", "--heap", "96m",
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.MemoryHog", "-1");
        assertEquals(0, result.exitCode(), result.toString());
        for (long heap : maxHeaps(result)) {
            assertTrue(heap <= (96L << 20) * 102 / 100 && heap > (96L << 20) * 8 / 10, Long.toString(heap));
        }
    }

    @Test
    void aRankThatRunsOutOfMemoryIsReportedAsSuch() throws Exception {
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "-n", "3", "--heap", "64m",
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.MemoryHog", "1");
        assertEquals(3, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("quire run: rank 1 ran out of memory (java.lang.OutOfMemoryError: Java heap"
                + " space) and exited with status 3; give the ranks more with --heap; stopping the other 2 ranks"),
                result.toString());
    }

    @Test
    void tooManyRanksForTheDefaultFloorAreRefusedWithAHintAtHeap() throws Exception {
        long memory = WorkerHeap.machineMemory();
        int ranks = (int) (memory / 2 / (WorkerHeap.MIN_MIB << 20)) + 1;
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "-n", Integer.toString(ranks),
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.MemoryHog", "-1");
        assertEquals(2, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("-n " + ranks + " workers of at least 64 MiB each need "
                + WorkerHeap.describe(ranks * (64L << 20)) + ", more than half of this machine's memory ("
                + WorkerHeap.describe(memory) + "); choose their heap with --heap (e.g. --heap "
                + (memory / 2 / ranks >> 20) + "m) or run fewer ranks"), result.toString());
        assertTrue(result.stdoutLines().stream().noneMatch(l -> l.contains("] max heap ")), "no worker started");
    }

    @Test
    void helpStatesTheDefaultWithThisMachinesMemory() throws Exception {
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "--help");
        assertEquals(0, result.exitCode(), result.toString());
        String help = result.stdout().replaceAll("\\s+", " ");
        assertTrue(help.contains("--heap=SIZE heap limit of each worker JVM, e.g. 512m or 2g (default: half of this"
                + " machine's memory, " + WorkerHeap.describe(WorkerHeap.machineMemory()) + " here, divided by N"), help);
    }

    private static List<Long> maxHeaps(QuireCommand.Result result) {
        return result.stdoutLines().stream().filter(l -> l.contains("] max heap "))
                .map(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).toList();
    }
}
