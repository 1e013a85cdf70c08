package org.quire.format.storage;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.FileChannel;

/**
 * Makes a {@link FileChannel} immune to thread interrupts, when the JVM lets Quire. A JDK file
 * channel closes itself when the thread using it is interrupted (before or during a read, write,
 * size, truncate or force), and the JDK's locks are POSIX {@code fcntl} locks (listed as {@code
 * POSIX} in {@code /proc/locks} on JDK 17 and 25, not {@code OFDLCK}), which the kernel drops, all
 * of a process's on a file, when any of its descriptors of that file closes: one interrupted
 * reader would silently hand the writer's exclusive lock to another process. The JDK's channels
 * have an uninterruptible mode for its own use, {@code FileChannelImpl.setUninterruptible()} in
 * the package {@code sun.nio.ch}, which {@code java.base} does not export: with {@code
 * --add-exports java.base/sun.nio.ch=ALL-UNNAMED} (Quire on the class path; {@code
 * =org.quire.format} on the module path) it is called here, an interrupt then stays pending for
 * the caller to see and the system call runs to its end.
 *
 * <p>Without that option every channel stays interruptible, silently (no warning: one line on
 * standard error is every command's contract): an interrupted thread's operation fails with
 * {@link StorageIOException} saying the interrupt closed the file and dropped the process's
 * locks on it (docs/storage.md, "Interrupts").
 */
final class Uninterruptible {

    /** {@code FileChannelImpl.setUninterruptible()}, or null when it cannot be called. */
    private static final MethodHandle SET_UNINTERRUPTIBLE = find();

    private Uninterruptible() {
    }

    private static MethodHandle find() {
        try {
            Class<?> impl = Class.forName("sun.nio.ch.FileChannelImpl");
            if (!impl.getModule().isExported(impl.getPackageName(),
                    Uninterruptible.class.getModule())) {
                return null;
            }
            return MethodHandles.lookup().findVirtual(impl, "setUninterruptible",
                    MethodType.methodType(void.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // a JDK without it: channels stay interruptible
        }
    }

    /** Whether {@link #channel} makes channels uninterruptible in this JVM. */
    static boolean available() {
        return SET_UNINTERRUPTIBLE != null;
    }

    /** {@code channel}, from now on never closed by an interrupt if {@link #available()}. */
    static FileChannel channel(FileChannel channel) {
        if (SET_UNINTERRUPTIBLE != null
                && SET_UNINTERRUPTIBLE.type().parameterType(0).isInstance(channel)) {
            try {
                SET_UNINTERRUPTIBLE.invoke(channel);
            } catch (Throwable e) {
                // A setter of one boolean field: nothing can fail here but the JVM itself.
                throw new IllegalStateException("FileChannelImpl.setUninterruptible failed", e);
            }
        }
        return channel;
    }
}
