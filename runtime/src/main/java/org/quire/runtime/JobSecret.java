package org.quire.runtime;

import com.sun.security.auth.module.UnixSystem;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * The random key that makes a job's processes recognise each other: 256 bits from
 * {@link SecureRandom}, created by whoever starts the job and handed to the ranks in a file only
 * their user can read ({@value LaunchContract#SECRET_FILE}); never in arguments, environment
 * values or logs. Every message a rank accepts from the network carries an HMAC-SHA256 keyed by
 * it; {@link #toString()} never shows it.
 */
public final class JobSecret {

    /** Length of the key and of every {@link #mac}. */
    public static final int BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private final SecretKeySpec key;

    private JobSecret(byte[] bytes) {
        this.key = new SecretKeySpec(bytes, ALGORITHM);
    }

    /** A fresh secret from the system's cryptographic random generator. */
    public static JobSecret generate() {
        byte[] bytes = new byte[BYTES];
        new SecureRandom().nextBytes(bytes);
        return new JobSecret(bytes);
    }

    /** Writes the secret to a new file {@code file} that only its owner may read (mode 0600). */
    public void writeTo(Path file) throws IOException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Files.write(file, key.getEncoded());
    }

    /**
     * Reads the secret a launcher wrote with {@link #writeTo}. A symbolic link, a file another user
     * owns, or one others may read or write, is refused: its secret may be known to them. Every
     * check and the read itself look at {@code file} itself, never at what a link points to.
     */
    public static JobSecret readFrom(Path file) {
        try {
            PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile()) {
                throw new LaunchContractException("job secret file " + file + " is "
                        + (attributes.isSymbolicLink() ? "a symbolic link" : "not a regular file")
                        + "; expected the regular file the launcher wrote");
            }
            int owner = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            long self = new UnixSystem().getUid();
            if (owner != self) {
                throw new LaunchContractException("job secret file " + file + " is owned by uid " + owner
                        + "; expected uid " + self + ", the user running this rank");
            }
            Set<PosixFilePermission> mode = attributes.permissions();
            if (!OWNER_ONLY.containsAll(mode)) {
                throw new LaunchContractException("job secret file " + file + " has mode "
                        + PosixFilePermissions.toString(mode)
                        + "; expected rw------- (only its owner may read it)");
            }
            byte[] bytes = readAtMost(file, BYTES + 1);
            if (bytes.length != BYTES) {
                throw new LaunchContractException("job secret file " + file + " holds "
                        + (bytes.length > BYTES ? "more than " + BYTES : bytes.length) + " bytes; expected " + BYTES);
            }
            return new JobSecret(bytes);
        } catch (IOException e) {
            throw new LaunchContractException("cannot read the job secret file " + file + ": " + e);
        }
    }

    /** Up to {@code limit} bytes of {@code file}, opened without following a symbolic link put there meanwhile. */
    private static byte[] readAtMost(Path file, int limit) throws IOException {
        try (InputStream in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            return in.readNBytes(limit);
        }
    }

    /**
     * HMAC-SHA256 of {@code purpose} and {@code parts}, each prefixed with its length so that no two
     * different inputs give the same bytes to the MAC. {@code purpose} keeps MACs of one protocol
     * from being accepted by another.
     */
    public byte[] mac(String purpose, byte[]... parts) {
        Mac mac = newMac();
        update(mac, purpose.getBytes(StandardCharsets.UTF_8));
        for (byte[] part : parts) {
            update(mac, part);
        }
        return mac.doFinal();
    }

    /** True when {@code found} is {@link #mac}{@code (purpose, parts)}; compares in constant time. */
    public boolean verify(byte[] found, String purpose, byte[]... parts) {
        return MessageDigest.isEqual(mac(purpose, parts), found);
    }

    /** A value derived from the secret for {@code purpose} that reveals nothing of the secret itself. */
    public String derivedName(String purpose) {
        return HexFormat.of().formatHex(Arrays.copyOf(mac(purpose), 16));
    }

    private static void update(Mac mac, byte[] part) {
        mac.update(ByteBuffer.allocate(Integer.BYTES).putInt(part.length).array());
        mac.update(part);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java 17 runtime provides " + ALGORITHM, e);
        }
    }

    @Override
    public String toString() {
        return "JobSecret[not shown]";
    }
}
