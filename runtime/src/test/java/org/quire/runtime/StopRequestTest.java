package org.quire.runtime;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real SIGUSR1 to this test JVM, after {@link Quire#init} made it a worker (a world of one: no
 * launcher or Slurm variables): the request is seen, each hook runs once on the stop-request
 * thread, also one registered after the request, and a second signal runs nothing again.
 */
class StopRequestTest {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    @Test
    void sigusr1SetsTheFlagAndRunsEachHookOnceOffTheSignalThread() throws Exception {
        Job job = Quire.init(new String[0]);
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch before = new CountDownLatch(1);
        job.onStopRequest(() -> {
            ran.add("before on " + Thread.currentThread().getName());
            before.countDown();
        });
        assertFalse(job.stopRequested());

        signalThisJvm("USR1");
        assertTrue(before.await(LIMIT.toSeconds(), TimeUnit.SECONDS), "the hook ran");
        assertTrue(job.stopRequested());

        CountDownLatch after = new CountDownLatch(1);
        job.onStopRequest(() -> {
            ran.add("after on " + Thread.currentThread().getName());
            after.countDown();
        });
        assertTrue(after.await(LIMIT.toSeconds(), TimeUnit.SECONDS), "a hook registered after the request ran at once");

        signalThisJvm("USR1");
        Thread.sleep(500);
        assertEquals(List.of("before on quire-stop-request", "after on quire-stop-request"), ran);
    }

    @Test
    void noHookStartsOnceTheWorkerHasBegunToLeave() throws Exception {
        StopRequest request = new StopRequest();
        List<String> ran = new CopyOnWriteArrayList<>();
        request.onRequest(() -> ran.add("hook"));
        request.awaitHooks(); // what LeaveAtThreadEnd does before leaving the world
        request.receive(new sun.misc.Signal("USR1"));
        request.onRequest(() -> ran.add("late hook"));
        Thread.sleep(500);
        assertEquals(List.of(), ran, "a signal while leaving starts no hook");
        assertTrue(request.requested());
    }

    private static void signalThisJvm(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(ProcessHandle.current().pid())).start();
        assertEquals(0, kill.waitFor());
    }
}
