package org.quire.format;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * Marks a test method or class that starts an outside program: {@code /usr/bin/python3} with h5py or
 * versioned-hdf5, {@code h5dump}, {@code h5debug}, {@code h5clear}, SIONlib's tools, {@code mkfifo},
 * or a second JVM. Such a test costs seconds to minutes per run, so mutation runs (the
 * {@code mutation} profile of {@code format/pom.xml}) leave out the tag {@code outside-program}
 * and run every other test.
 *
 * <p>The tag is checked, not trusted: with the system property {@code quire.noOutsidePrograms=true}
 * (which the profile gives PIT's minions) every place in the test code that starts a program
 * fails the test with one line ({@code org.quire.format.hdf5.ExternalTools#startsOutsideProgram}),
 * so a test that starts one without the tag breaks PIT's first green run instead of silently
 * costing minutes per mutant.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("outside-program")
public @interface StartsOutsideProgram {
}
