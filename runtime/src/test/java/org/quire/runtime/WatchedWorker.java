package org.quire.runtime;

/** A worker that links to its launcher as the -javaagent would, then idles: prints "started" first. */
public final class WatchedWorker {

    private WatchedWorker() {
    }

    public static void main(String[] args) throws InterruptedException {
        LauncherLinkAgent.premain(null);
        System.out.println("started");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
