package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.Callable;

import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.ChunkIndexType;
import org.quire.format.hdf5.CommittedDatatype;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Filter;
import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5Object;
import org.quire.format.hdf5.StorageLayout;
import org.quire.format.hdf5.Unsupported;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quire h5 ls FILE [PATH]}: the groups and datasets under PATH, depth first, members in
 * name order. Each object is a line {@code group PATH} or {@code dataset PATH}, followed by its
 * properties and attributes, indented (an object met again through another hard link is one
 * line, {@code group /a/up (same object as /)}; a soft link is a line {@code link PATH ->
 * TARGET}, not followed here; a member Quire cannot read yet is a line
 * {@code unsupported PATH: why}, and the status is then 1). Groups and attributes stored
 * densely list like compact ones; a contiguous or compact dataset shows {@code layout:
 * contiguous} or {@code layout: compact} in place of the chunk shape and index:
 *
 * <pre>
 * dataset /fields/temperature
 *     shape:       [100, 200]
 *     max shape:   [100, inf]
 *     type:        float64 LE
 *     chunk shape: [32, 64]
 *     chunk index: fixed array
 *     filters:     shuffle, deflate(6)
 *     fill value:  nan
 *     @units: string[1] nullpad ascii = "K"
 * </pre>
 */
@Command(name = "ls",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Lists the groups and datasets under PATH (default /) with each dataset's shape,"
                + " maximum shape, element type, chunk shape and chunk index (or layout: contiguous or"
                + " compact), filters and fill value, and every"
                + " object's attributes (long values shortened).",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:listed (a file an SWMR writer has open is read as of its last commit, with a line on standard error saying so)",
            "1:the file cannot be read (damaged, open by a writer that is not an SWMR writer, unsupported feature)",
            "2:bad arguments (no such file or object)"})
public final class ListCommand implements Callable<Integer> {

    /** Attribute elements shown before the rest is summarised. */
    static final int MAX_ATTRIBUTE_ELEMENTS = 8;
    /** Characters of an attribute value shown before it is cut. */
    static final int MAX_ATTRIBUTE_TEXT = 80;

    @Spec
    private CommandSpec spec;

    @Mixin
    private Hdf5Input input;

    @Parameters(index = "1", paramLabel = "PATH", defaultValue = "/",
            description = "group or dataset to list (default: /)")
    private String path;

    /** Objects listed so far, by header address, with the path they were listed under. */
    private final Map<Long, String> listed = new HashMap<>();
    /** Members and attributes that could not be read (a feature Quire does not read yet). */
    private int unsupported;

    @Override
    public Integer call() {
        int status = input.runOnOpenFile((hdf5, out) -> {
            list(ObjectPaths.find(hdf5, path), out);
            return CommandRun.OK;
        });
        if (status != CommandRun.OK || unsupported == 0) {
            return status;
        }
        CommandRun.error(spec, unsupported + " member(s) or attribute(s) not listed: Quire"
                + " does not read them yet (lines 'unsupported PATH: why' and '@NAME:"
                + " unsupported: why' above)");
        return CommandRun.FAILED;
    }

    /**
     * Lists {@code object} and, for a group, its members; an object reached again through another
     * hard link (a second name, or a link back to an ancestor) is one line naming where it was
     * listed.
     */
    private void list(Hdf5Object object, PrintWriter out) throws IOException {
        String first = listed.putIfAbsent(object.address(), object.path());
        out.println(ObjectPaths.kind(object).substring(2).replace("committed ", "") + " "
                + ValueFormat.name(object.path())
                + (first != null ? " (same object as " + ValueFormat.name(first) + ")" : ""));
        if (first != null) {
            return;
        }
        if (object instanceof Dataset dataset) {
            describe(dataset, out);
            attributes(dataset, out);
            return;
        }
        if (object instanceof CommittedDatatype committed) {
            property(out, "type", TypeDescription.of(committed.type()));
            attributes(committed, out);
            return;
        }
        Group group = (Group) object;
        attributes(group, out);
        // One pass over the links: a second lookup by name could miss a damaged one.
        List<Group.Member> members = new ArrayList<>(group.members());
        members.sort(Comparator.comparing(Group.Member::name));
        for (Group.Member link : members) {
            if (link.softLinkTarget() != null) {
                out.println("link " + ValueFormat.name(childPath(group, link.name())) + " -> "
                        + ValueFormat.name(link.softLinkTarget()));
                continue;
            }
            Hdf5Object member;
            try {
                member = link.open();
            } catch (UnsupportedFormatException e) {
                String path = childPath(group, link.name());
                out.println("unsupported " + ValueFormat.name(path) + ": "
                        + ValueFormat.name(Unsupported.of(path, e).reason()));
                unsupported++;
                continue;
            }
            list(member, out);
        }
    }

    private static String childPath(Group group, String name) {
        return group.path() + (group.path().endsWith("/") ? "" : "/") + name;
    }

    private static void describe(Dataset dataset, PrintWriter out) {
        property(out, "shape", sizes(dataset.shape()));
        property(out, "max shape", sizes(dataset.maxShape()));
        property(out, "type", TypeDescription.of(dataset.type()));
        if (dataset.layout() == StorageLayout.CHUNKED) {
            property(out, "chunk shape", sizes(dataset.chunkShape()));
            property(out, "chunk index", indexName(dataset.chunkIndexType()));
        } else {
            property(out, "layout", dataset.layout().name().toLowerCase(Locale.ROOT));
        }
        StringJoiner filters = new StringJoiner(", ");
        for (Filter filter : dataset.filters()) {
            filters.add(filterName(filter));
        }
        property(out, "filters", dataset.filters().isEmpty() ? "none" : filters.toString());
        byte[] fill = dataset.fillValue();
        if (dataset.type() instanceof Datatype.VariableLengthStringType) {
            property(out, "fill value", fill == null || isZero(fill) ? "\"\" (default)"
                    : "a string in the global heap (not shown)");
            return;
        }
        property(out, "fill value", fill == null
                ? ValueFormat.format(dataset.type(), new byte[dataset.type().size()], 0)
                        + " (default)"
                : ValueFormat.format(dataset.type(), fill, 0));
    }

    private static boolean isZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static void property(PrintWriter out, String name, String value) {
        out.println("    " + String.format("%-13s", name + ":") + value);
    }

    /** {@code [100, inf]}: sizes, {@code inf} for an unlimited maximum. */
    static String sizes(long[] sizes) {
        StringJoiner text = new StringJoiner(", ", "[", "]");
        for (long size : sizes) {
            text.add(size == DatasetSpec.UNLIMITED ? "inf" : Long.toString(size));
        }
        return text.toString();
    }

    static String indexName(ChunkIndexType type) {
        return switch (type) {
            case SINGLE_CHUNK -> "single chunk";
            case IMPLICIT -> "implicit";
            case FIXED_ARRAY -> "fixed array";
            case EXTENSIBLE_ARRAY -> "extensible array";
            case VERSION_2_BTREE -> "v2 B-tree";
            case VERSION_1_BTREE -> "v1 B-tree";
            case QUIRE_SKIP_LIST -> "skip list (Quire only)";
        };
    }

    static String filterName(Filter filter) {
        if (filter instanceof Filter.Deflate deflate) {
            return "deflate(" + deflate.level() + ")";
        }
        if (filter instanceof Filter.Lzf) {
            return "lzf";
        }
        return filter instanceof Filter.Shuffle ? "shuffle" : "fletcher32";
    }

    /**
     * The attributes Quire reads, then one line {@code @name: unsupported: why} for each of a
     * type it does not read (counted: the status is then 1).
     */
    private void attributes(Hdf5Object object, PrintWriter out) throws IOException {
        for (Attribute attribute : object.attributes()) {
            out.println("    @" + ValueFormat.name(attribute.name()) + ": " + TypeDescription.of(attribute.type()) + " = "
                    + attributeValue(attribute));
        }
        for (Unsupported attribute : object.unsupportedAttributes()) {
            out.println("    @" + ValueFormat.name(attribute.name()) + ": unsupported: "
                    + ValueFormat.name(attribute.reason()));
            unsupported++;
        }
    }

    /**
     * A scalar as its value, an array as {@code [v, v, ...]}: at most
     * {@link #MAX_ATTRIBUTE_ELEMENTS} elements and {@link #MAX_ATTRIBUTE_TEXT} characters, then
     * {@code ...} and the number of values; a shape of two or more dimensions is appended.
     */
    static String attributeValue(Attribute attribute) {
        long[] shape = attribute.shape();
        int elements = (int) attribute.elementCount();
        if (shape.length == 0) {
            return shorten(element(attribute, 0));
        }
        StringJoiner values = new StringJoiner(", ", "[", "]");
        int shown = Math.min(elements, MAX_ATTRIBUTE_ELEMENTS);
        for (int i = 0; i < shown; i++) {
            values.add(element(attribute, i));
        }
        String text = values.toString();
        boolean cut = shown < elements || text.length() > MAX_ATTRIBUTE_TEXT;
        if (cut) {
            text = cut(text, Math.min(text.length() - 1, MAX_ATTRIBUTE_TEXT)) + ", ...] ("
                    + elements + " values)";
        }
        return shape.length > 1 ? text + " shape " + sizes(shape) : text;
    }

    private static String element(Attribute attribute, int index) {
        Datatype type = attribute.type();
        if (type instanceof Datatype.VariableLengthStringType string) {
            return ValueFormat.string(attribute.strings().get(index), string.utf8());
        }
        return ValueFormat.format(type, attribute.data(), index * type.size());
    }

    private static String shorten(String value) {
        return value.length() <= MAX_ATTRIBUTE_TEXT ? value
                : cut(value, MAX_ATTRIBUTE_TEXT) + "...";
    }

    /**
     * The longest start of {@code text} of at most {@code max} characters that splits neither
     * an escape ({@code \n}, {@code \xNN}, ...) nor a character outside the BMP.
     */
    static String cut(String text, int max) {
        int end = 0;
        while (end < text.length()) {
            char c = text.charAt(end);
            int token = c == '\\' && end + 1 < text.length()
                    ? (text.charAt(end + 1) == 'x' ? 4 : text.charAt(end + 1) == 'u' ? 6 : 2)
                    : Character.isHighSurrogate(c) ? 2 : 1;
            if (end + token > max) {
                break;
            }
            end += token;
        }
        return text.substring(0, Math.min(end, text.length()));
    }
}
