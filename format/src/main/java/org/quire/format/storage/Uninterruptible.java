package org.quire.format.storage;

import java.lang.reflect.Field;
import java.nio.channels.FileChannel;
import sun.misc.Unsafe;

/**
 * Makes a {@link FileChannel} immune to thread interrupts. A JDK file channel closes itself when
 * the thread using it is interrupted (before or during a read, write, size, truncate or force),
 * and closing any descriptor of a file drops every {@code fcntl} lock this process holds on it:
 * one interrupted reader would silently hand the writer's exclusive lock to another process.
 * The JDK's channels have an uninterruptible mode for its own use ({@code
 * FileChannelImpl.setUninterruptible}, not exported); this sets the same flag through {@link
 * Unsafe}, so no JVM option is needed. An interrupt then stays pending for the caller to see,
 * and the system call runs to its end.
 */
final class Uninterruptible {

    private static final Unsafe UNSAFE;
    private static final Class<?> CHANNEL_CLASS;
    private static final long FLAG;

    static {
        try {
            Field theUnsafe = Unsafe.class.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            UNSAFE = (Unsafe) theUnsafe.get(null);
            CHANNEL_CLASS = Class.forName("sun.nio.ch.FileChannelImpl");
            FLAG = UNSAFE.objectFieldOffset(CHANNEL_CLASS.getDeclaredField("uninterruptible"));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError("this JDK's file channels cannot be made "
                    + "uninterruptible (expected sun.nio.ch.FileChannelImpl.uninterruptible): "
                    + e);
        }
    }

    private Uninterruptible() {
    }

    /** {@code channel}, from now on never closed by an interrupt. */
    static FileChannel channel(FileChannel channel) {
        if (!CHANNEL_CLASS.isInstance(channel)) {
            throw new IllegalArgumentException("not a JDK file channel: " + channel.getClass());
        }
        UNSAFE.putBooleanVolatile(channel, FLAG, true);
        return channel;
    }
}
