package org.quire.launcher.run;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The signals that end {@code quire run} (SIGINT, SIGTERM, SIGHUP), caught so that the launcher
 * can say which one it received and stop the ranks itself, instead of dying in a shutdown hook
 * that cannot tell a signal from a rank's crash. SIGQUIT cannot be caught: the JVM keeps it for
 * its own thread dump (also under {@code -Xrs}); a rank's dump comes from {@code kill -QUIT} of
 * the rank's pid ({@code --show-pids}).
 */
final class LauncherSignals implements AutoCloseable {

    /** A signal received, with the exit status a shell gives a process it ends: 128 + number. */
    record Received(String name, int number) {
        int exitStatus() {
            return 128 + number;
        }
    }

    private static final List<String> ENDING = List.of("INT", "TERM", "HUP");

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    /** Calls {@code onSignal} (on a JVM signal thread) for each of SIGINT, SIGTERM, SIGHUP until closed. */
    LauncherSignals(Consumer<Received> onSignal) {
        for (String name : ENDING) {
            Signal signal = new Signal(name);
            previous.add(Signal.handle(signal, s -> onSignal.accept(new Received("SIG" + s.getName(), s.getNumber()))));
            signals.add(signal);
        }
    }

    /** The JVM's own handlers again (its shutdown on these signals). */
    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
