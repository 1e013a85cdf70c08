package org.quire.examples;

import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/** The smallest Quire program: every rank says who it is. */
public final class Hello {

    private Hello() {
    }

    public static void main(String[] args) {
        try (Job job = Quire.init(args)) {
            System.out.println("hello from rank " + job.world().rank() + " of " + job.world().size()
                    + " (pid " + ProcessHandle.current().pid() + ")");
        }
    }
}
