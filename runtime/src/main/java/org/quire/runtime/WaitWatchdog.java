package org.quire.runtime;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Warns when a rank has waited in one communicator call for longer than a set time: the hint a
 * hung job otherwise never gives (docs/launcher.md, "Diagnosing a stuck job").
 *
 * <p>One daemon thread per watchdog looks every quarter of the threshold (at most every second)
 * at the call each watched rank is in. A call costs the rank only one small record written to a
 * volatile field when it starts and a null written when it ends; the warning is printed once per
 * call, however long it goes on waiting, so a job stuck for hours prints one line per stuck rank.
 *
 * <p>A worker's threshold comes from the system property {@value #PROPERTY}, else the variable
 * {@value #VARIABLE} ({@code quire run --warn-after} sets the latter), else 60 s; {@code 0}
 * switches the warnings off.
 */
public final class WaitWatchdog {

    /** System property with the threshold, e.g. {@code -Dquire.warnAfter=30s}; wins over the variable. */
    public static final String PROPERTY = "quire.warnAfter";
    /** Environment variable with the threshold, e.g. {@code QUIRE_WARN_AFTER=30s}. */
    public static final String VARIABLE = "QUIRE_WARN_AFTER";
    /** The threshold when neither is set. */
    public static final Duration DEFAULT = Duration.ofSeconds(60);

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");
    private static final long MAX_TICK_NANOS = Duration.ofSeconds(1).toNanos();
    private static final long MIN_TICK_NANOS = Duration.ofMillis(5).toNanos();

    private static WaitWatchdog ofThisWorker;

    /**
     * One call a rank is waiting in; a new record per call, so the watchdog can tell calls apart.
     * Its text is only put together when a warning is printed.
     *
     * @param peerRole "source" or "root", or null for a collective without one
     * @param tag      the user tag, or -1 for a collective
     */
    record Call(String operation, String peerRole, int peer, int tag, String communicator, long startNanos) {

        /** E.g. {@code receive(source=0, tag=7)}, {@code broadcast(root=0)}, {@code barrier}. */
        String describe() {
            if (peerRole == null) {
                return operation;
            }
            return operation + "(" + peerRole + "=" + peer + (tag < 0 ? "" : ", tag=" + tag) + ")";
        }
    }

    /** Where one rank (and its sub-communicators, used by the same thread) records its current call. */
    static final class Rank {
        final int worldRank;
        volatile Call current;
        /** Only touched by the watchdog thread. */
        Call warnedAbout;

        Rank(int worldRank) {
            this.worldRank = worldRank;
        }
    }

    private final Duration warnAfter;
    private final PrintStream err;
    /** Weak: a rank whose communicator is gone (an in-JVM world that ended) is no longer watched. */
    private final Set<Rank> ranks = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    private Thread thread;

    /** A watchdog printing to {@code err} once a call has waited {@code warnAfter}; zero: never. */
    public WaitWatchdog(Duration warnAfter, PrintStream err) {
        if (warnAfter.isNegative()) {
            throw new IllegalArgumentException("the wait warning threshold must be >= 0, got " + warnAfter);
        }
        this.warnAfter = warnAfter;
        this.err = err;
    }

    /** This worker's watchdog, printing to standard error with the threshold of its settings. */
    public static synchronized WaitWatchdog ofThisWorker() {
        if (ofThisWorker == null) {
            ofThisWorker = new WaitWatchdog(configured(System.getProperty(PROPERTY), System.getenv(VARIABLE)), System.err);
        }
        return ofThisWorker;
    }

    /** The threshold given by the property's value, else the variable's, else {@link #DEFAULT}. */
    static Duration configured(String property, String variable) {
        if (property != null) {
            return parse(property, "system property " + PROPERTY);
        }
        if (variable != null) {
            return parse(variable, VARIABLE);
        }
        return DEFAULT;
    }

    /**
     * Parses a threshold: a whole number with unit {@code ms}, {@code s}, {@code m} or {@code h}
     * (seconds without one); {@code source} names where it came from, for the error.
     */
    public static Duration parse(String value, String source) {
        Matcher m = DURATION.matcher(value.trim());
        if (!m.matches()) {
            throw new LaunchContractException(source + " is '" + value
                    + "'; expected a whole number of ms, s, m or h, e.g. 60s (0: no warnings)");
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofSeconds(amount);
        };
    }

    /** The time after which a call is reported. */
    public Duration warnAfter() {
        return warnAfter;
    }

    /**
     * {@code world} with every waiting call watched, warnings naming {@code world.rank()}; the
     * communicator itself when warnings are off.
     */
    public Communicator watch(Communicator world) {
        if (warnAfter.isZero()) {
            return world;
        }
        Rank rank = new Rank(world.rank());
        ranks.add(rank);
        startThread();
        return new WatchedCommunicator(world, rank, "the world communicator");
    }

    private synchronized void startThread() {
        if (thread != null) {
            return;
        }
        long tick = Math.max(MIN_TICK_NANOS, Math.min(MAX_TICK_NANOS, warnAfter.toNanos() / 4));
        thread = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(Duration.ofNanos(tick).toMillis(), (int) (tick % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
                look(System.nanoTime());
            }
        }, "quire-wait-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    /** Warns about every call that has waited long enough and has not been warned about yet. */
    private void look(long now) {
        Rank[] snapshot;
        synchronized (ranks) {
            snapshot = ranks.toArray(new Rank[0]);
        }
        for (Rank rank : snapshot) {
            Call call = rank.current;
            long waited = call == null ? 0 : now - call.startNanos();
            if (call != null && call != rank.warnedAbout && waited >= warnAfter.toNanos()) {
                rank.warnedAbout = call;
                err.println("quire: rank " + rank.worldRank + " has waited " + describe(Duration.ofNanos(waited))
                        + " in " + call.describe() + " on " + call.communicator());
                err.flush();
            }
        }
    }

    /** Whole seconds from a second on, as people read them; milliseconds below. */
    static String describe(Duration waited) {
        return waited.compareTo(Duration.ofSeconds(1)) >= 0 ? waited.toSeconds() + " s" : waited.toMillis() + " ms";
    }
}
