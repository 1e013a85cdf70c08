package org.quire.runtime;

import java.util.Map;

/**
 * Opens a worker's link to {@code quire run} before the worker's own code runs, so that a worker
 * whose main does long work before {@link Quire#init} still leaves when its launcher dies.
 * {@code quire run} starts every worker JVM with {@code -javaagent:<the runtime jar>}, whose
 * manifest names this class as {@code Premain-Class}.
 *
 * <p>Reading the world deletes the secret file ({@link LaunchContract#read}), so the world read
 * here, or the error reading it gave, is kept for {@link Quire#init} in this same JVM.
 */
public final class LauncherLinkAgent {

    private static WorldSpec world;
    private static LaunchContractException failure;

    private LauncherLinkAgent() {
    }

    /** Runs before the worker's main: reads {@code quire run}'s world and starts the {@link LauncherWatch}. */
    public static void premain(String options) {
        Map<String, String> env = System.getenv();
        if (!LaunchContract.isPresent(env)) {
            return;
        }
        try {
            world = startWatch(env);
        } catch (LaunchContractException e) {
            failure = e; // Quire.init reports it, as it reports every contract error
        }
    }

    /**
     * The world of this worker with its launcher link watched: the one the agent read, or, in a JVM
     * started without the agent, one read now.
     */
    static synchronized WorldSpec watchedWorld(Map<String, String> env) {
        if (failure != null) {
            throw failure;
        }
        if (world == null) {
            world = startWatch(env);
        }
        return world;
    }

    private static WorldSpec startWatch(Map<String, String> env) {
        WorldSpec spec = LaunchContract.read(env);
        String link = LaunchContract.required(env, LaunchContract.LAUNCHER_LINK);
        LauncherWatch.start(LaunchContract.host(link, LaunchContract.LAUNCHER_LINK),
                LaunchContract.port(link, LaunchContract.LAUNCHER_LINK), spec.secret(), spec.rank());
        return spec;
    }
}
