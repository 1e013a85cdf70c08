package org.quire.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.quire.launcher.QuireCommand;
import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/**
 * docs/first-program.md promises "every method" of {@code Quire}, {@code Job} and
 * {@code Communicator} in its table: each public method's name has a row ({@code Quire.} and
 * {@code Job.} methods with their class, a communicator's bare).
 */
class FirstProgramMethodTableTest {

    @Test
    void everyPublicMethodOfQuireJobAndCommunicatorHasARow() throws Exception {
        String page = Files.readString(QuireCommand.repositoryRoot().resolve("docs/first-program.md"));
        String table = page.substring(page.indexOf("## `Quire`, `Job` and `Communicator`: every method"),
                page.indexOf("## How this page is tested"));
        TreeSet<String> missing = new TreeSet<>();
        for (Class<?> type : List.of(Quire.class, Job.class, Communicator.class)) {
            String prefix = type == Communicator.class ? "`" : "`" + type.getSimpleName() + ".";
            for (Method method : type.getDeclaredMethods()) {
                String name = method.getName();
                if (Modifier.isPublic(method.getModifiers()) && !method.isSynthetic()
                        && !table.contains(prefix + name + "(") && !table.contains(prefix + name + "`")) {
                    missing.add(type.getSimpleName() + "." + name);
                }
            }
        }
        assertEquals(new TreeSet<>(), missing, "methods without a row in docs/first-program.md");
    }
}
