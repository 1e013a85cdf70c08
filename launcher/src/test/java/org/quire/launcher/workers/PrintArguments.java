package org.quire.launcher.workers;

import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/** Test worker: prints its arguments joined by '|' on stdout, then a last line without a newline on stderr. */
public final class PrintArguments {

    private PrintArguments() {
    }

    public static void main(String[] args) {
        try (Job job = Quire.init(args)) {
            System.out.println("args=" + String.join("|", job.arguments()));
            System.err.print("no newline at the end");
        }
    }
}
