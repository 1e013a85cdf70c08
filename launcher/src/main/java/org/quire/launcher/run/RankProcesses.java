package org.quire.launcher.run;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The worker JVMs of one job: starts them, relays their output, and ends the job as soon as one
 * rank fails — MPJ's niodev never notices a dead peer, so without this the others would wait in
 * their next collective forever. On SIGINT/SIGTERM/SIGHUP to the launcher it says so ("received
 * SIGTERM, stopping 4 ranks") and every rank is stopped the same way: SIGTERM, which the worker
 * takes as a stop request (Job#stopRequested), then SIGKILL after the grace period; the launcher
 * then exits 128 + the signal's number, also when every rank stopped cleanly (a stopped job is not
 * a finished one, and a script deciding whether to resume must tell them apart), and the ranks'
 * ends are not reported as failures. After a rank failure the others get SIGKILL at once: the job
 * has failed, and ranks waiting in a collective for the dead one could not act on a stop request.
 */
final class RankProcesses {

    /** How long the launcher waits for a failed rank's last output before describing its end. */
    private static final Duration OUTPUT_DRAIN = Duration.ofSeconds(2);

    private final List<ProcessBuilder> ranks;
    private final Duration grace;
    private final PrintStream out;
    private final PrintStream err;
    private final List<Process> started = new ArrayList<>();
    private final List<Thread> relays = new ArrayList<>();
    /** Per rank, the message of the OutOfMemoryError it reported before exiting. */
    private final Map<Integer, String> outOfMemory = new ConcurrentHashMap<>();
    private final Map<Integer, List<Thread>> relaysOfRank = new ConcurrentHashMap<>();
    private final boolean showPids;
    /** The signal that ends the job, once the launcher received one. */
    private volatile LauncherSignals.Received received;

    /** @param showPids print each rank's process id once it started */
    RankProcesses(List<ProcessBuilder> ranks, Duration grace, PrintStream out, PrintStream err, boolean showPids) {
        this.ranks = ranks;
        this.grace = grace;
        this.out = out;
        this.err = err;
        this.showPids = showPids;
    }

    /**
     * Runs the job to its end.
     *
     * @return 0 when every rank exited 0, 128 + n when the launcher received signal n, else the
     *         status of the first rank that failed
     */
    int run() {
        BlockingQueue<RankExit> exits = new LinkedBlockingQueue<>();
        Thread onShutdown = new Thread(this::stopAll, "quire-stop-ranks");
        Runtime.getRuntime().addShutdownHook(onShutdown);
        try (LauncherSignals signals = new LauncherSignals(this::stopOnSignal)) {
            for (int rank = 0; rank < ranks.size(); rank++) {
                Process process = start(rank);
                int r = rank;
                process.onExit().thenAccept(p -> exits.add(new RankExit(r, p.exitValue(), null)));
                if (showPids) {
                    err.println("quire run: rank " + rank + " is process " + process.pid());
                }
            }
            RankExit firstFailure = null;
            int cleanExits = 0;
            for (int ended = 0; ended < ranks.size(); ended++) {
                RankExit exit = exits.take();
                if (!exit.failed()) {
                    cleanExits++;
                }
                if (exit.failed() && firstFailure == null && received == null) {
                    exit = withOutOfMemory(exit);
                    firstFailure = exit;
                    int others = ranks.size() - ended - 1;
                    err.println("quire run: " + exit.describe() + stoppingTheOthers(others));
                    killAll();
                }
            }
            awaitRelays();
            if (received != null) {
                if (cleanExits == ranks.size()) {
                    err.println("quire run: every rank stopped cleanly (status 0)");
                }
                return received.exitStatus();
            }
            return firstFailure == null ? 0 : firstFailure.status();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopAll();
            return 1;
        } finally {
            removeHook(onShutdown);
        }
    }

    /** "; stopping the other rank", "; stopping the other 3 ranks", or nothing when none is left. */
    private static String stoppingTheOthers(int others) {
        if (others == 0) {
            return "";
        }
        return others == 1 ? "; stopping the other rank" : "; stopping the other " + others + " ranks";
    }

    /** The launcher received {@code signal}: says so once, and stops every rank. */
    private void stopOnSignal(LauncherSignals.Received signal) {
        if (received != null) {
            return;
        }
        received = signal;
        long alive;
        synchronized (started) {
            alive = started.stream().filter(Process::isAlive).count();
        }
        err.println("quire run: received " + signal.name() + ", stopping " + alive + (alive == 1 ? " rank" : " ranks"));
        stopAll();
    }

    private Process start(int rank) {
        Process process;
        try {
            process = ranks.get(rank).start();
        } catch (IOException e) {
            stopAll();
            throw new LaunchException("cannot start rank " + rank + ": " + e.getMessage(), e);
        }
        synchronized (started) {
            started.add(process);
        }
        relay(rank, new RankOutput(rank, process.getInputStream(), out, e -> outOfMemory.put(rank, e)), "stdout");
        relay(rank, new RankOutput(rank, process.getErrorStream(), err, e -> outOfMemory.put(rank, e)), "stderr");
        return process;
    }

    private void relay(int rank, Runnable copy, String stream) {
        Thread thread = new Thread(copy, "rank-" + rank + "-" + stream);
        thread.setDaemon(true);
        thread.start();
        relays.add(thread);
        relaysOfRank.computeIfAbsent(rank, r -> new ArrayList<>()).add(thread);
    }

    /**
     * {@code exit} with the OutOfMemoryError the rank printed, once its output has been read to the
     * end; only for the JVM's out-of-memory status, as any program may print the JVM's line.
     */
    private RankExit withOutOfMemory(RankExit exit) throws InterruptedException {
        if (exit.status() != RankExit.OUT_OF_MEMORY_STATUS) {
            return exit;
        }
        long deadline = System.nanoTime() + OUTPUT_DRAIN.toNanos();
        for (Thread relay : relaysOfRank.getOrDefault(exit.rank(), List.of())) {
            relay.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        return new RankExit(exit.rank(), exit.status(), outOfMemory.get(exit.rank()));
    }

    /**
     * SIGTERM to every live rank (and anything it started), which a Quire worker takes as a request
     * to stop; SIGKILL to those alive after the grace period, saying so for each rank. The period
     * counts from the SIGTERM and ends with the rank's exit, not its last line: after that line a
     * rank still leaves the world and its JVM exits (0.5 to 0.9 s measured under load, docs/launcher.md).
     */
    private void stopAll() {
        Map<ProcessHandle, Integer> rankOf = new HashMap<>();
        List<ProcessHandle> alive = aliveProcesses(rankOf);
        alive.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle process : alive) {
            try {
                process.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception stillAlive) {
                if (process.destroyForcibly() && rankOf.containsKey(process)) {
                    err.println("quire run: rank " + rankOf.get(process) + " had not exited " + grace.toSeconds()
                            + " s after its SIGTERM (--grace " + grace.toSeconds() + ": the time to stop, write its"
                            + " last files and exit its JVM); killed it with SIGKILL");
                }
            }
        }
    }

    /** SIGKILL to every live rank and anything it started. */
    private void killAll() {
        aliveProcesses(new HashMap<>()).forEach(ProcessHandle::destroyForcibly);
    }

    /** The live ranks and their descendants; {@code rankOf} gets each rank's process. */
    private List<ProcessHandle> aliveProcesses(Map<ProcessHandle, Integer> rankOf) {
        List<ProcessHandle> alive = new ArrayList<>();
        synchronized (started) {
            for (int rank = 0; rank < started.size(); rank++) {
                Process process = started.get(rank);
                process.descendants().forEach(alive::add);
                alive.add(process.toHandle());
                rankOf.put(process.toHandle(), rank);
            }
        }
        alive.removeIf(p -> !p.isAlive());
        return alive;
    }

    /** Lets the relays print what the ranks wrote last; a rank's orphaned child may hold a pipe open. */
    private void awaitRelays() throws InterruptedException {
        long deadline = System.nanoTime() + grace.toNanos();
        for (Thread relay : relays) {
            relay.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is already exiting because of a signal: the hook is running.
        }
    }
}
