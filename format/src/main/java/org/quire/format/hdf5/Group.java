package org.quire.format.hdf5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.BTreeV2LinkRecord;
import org.quire.format.hdf5.layout.BTreeV2RecordFormat;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.GroupInfoMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.LinkInfoMessage;
import org.quire.format.hdf5.layout.LinkMessage;
import org.quire.format.hdf5.layout.LittleEndianReader;
import org.quire.format.hdf5.layout.SymbolTableEntry;
import org.quire.format.hdf5.layout.SymbolTableMessage;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * A group: named hard links to groups and datasets. Quire writes them compactly as link messages
 * in the group's object header (with a link info and a group info message, as libhdf5 writes
 * new-style groups); it reads those, groups libhdf5 stores densely (more than 8 links: link
 * messages in a fractal heap, found by name through a B-tree of name hashes) and old-style
 * groups, libhdf5's default ({@link SymbolTable}: read whole when the group is opened). A new
 * link or a deletion in a dense group first moves its links into its header
 * ({@link #storeLinksCompactly}); libhdf5 moves them back into dense storage at its next new
 * link there. Links are added to and deleted from an old-style group in its symbol table, as
 * libhdf5 does ({@link SymbolTable#insert}, {@link SymbolTable#remove}).
 */
public final class Group extends Hdf5Object {

    /**
     * Soft links followed at most while resolving one link, nested ones and those met on the
     * way included: libhdf5's H5L_NUM_LINKS (it refuses the 17th, "too many links").
     */
    private static final int MAX_SOFT_LINKS = 16;

    /** Room in a new group's header for a few links and attributes before a continuation. */
    private static final int SPARE_HEADER_BYTES = 160;

    /** How libhdf5 stores links densely: type 5 and 6 B-tree records, link messages. */
    static final DenseMessageStorage.Kind<BTreeV2LinkRecord, LinkMessage> DENSE_LINKS =
            new DenseMessageStorage.Kind<>() {
                @Override
                public String what() {
                    return "link";
                }

                @Override
                public BTreeV2RecordFormat<BTreeV2LinkRecord> nameIndex() {
                    return BTreeV2LinkRecord.NAME;
                }

                @Override
                public BTreeV2RecordFormat<BTreeV2LinkRecord> creationOrderIndex() {
                    return BTreeV2LinkRecord.CREATION_ORDER;
                }

                @Override
                public int heapIdLength() {
                    return BTreeV2LinkRecord.HEAP_ID_LENGTH;
                }

                @Override
                public byte[] heapId(BTreeV2LinkRecord record) {
                    return record.heapId();
                }

                @Override
                public long nameHash(BTreeV2LinkRecord record) {
                    return record.key();
                }

                @Override
                public long creationOrder(BTreeV2LinkRecord record) {
                    return record.key();
                }

                @Override
                public LinkMessage decode(BTreeV2LinkRecord record, LittleEndianReader in)
                        throws IOException {
                    return LinkMessage.decode(in);
                }

                @Override
                public String name(LinkMessage message) {
                    return message.name();
                }
            };

    /**
     * Compact links in the order stored, or symbol table links in name order (as the table
     * keeps them, new ones too); empty when the links are dense.
     */
    private Map<String, LinkMessage> links = new LinkedHashMap<>();
    private final Map<String, Hdf5Object> children = new HashMap<>();
    /** The dense links of a group read from a file, or null. */
    private DenseMessageStorage<BTreeV2LinkRecord, LinkMessage> dense;
    /** The symbol table message of an old-style group read from a file, or null. */
    private SymbolTableMessage symbolTable;

    private Group(Hdf5File file, String path, long address, WritableObjectHeader header) {
        super(file, path, address, header);
    }

    /** A new, empty group whose header is allocated in {@code file}. */
    static Group create(Hdf5File file, String path) {
        WritableObjectHeader header = new WritableObjectHeader(file.blocks(), file.cache(), List.of(
                HeaderMessage.of(LinkInfoMessage.TYPE, 0, LinkInfoMessage.compact().encode()),
                HeaderMessage.of(GroupInfoMessage.TYPE, 0, GroupInfoMessage.encodeDefault())),
                SPARE_HEADER_BYTES);
        return new Group(file, path, header.address(), header);
    }

    /**
     * The group whose header {@code messages} were read at {@code address}; writable through
     * {@code header} (a file reopened for writing), or read only when it is null.
     */
    static Group read(Hdf5File file, String path, long address, List<HeaderMessage> messages,
                      WritableObjectHeader header) throws IOException {
        Group group = new Group(file, path, address, header);
        for (HeaderMessage message : messages) {
            if (message.type() == LinkInfoMessage.TYPE) {
                LinkInfoMessage info = LinkInfoMessage.decode(message.reader(file.blocks().path(),
                        "link info message"));
                if (info.isDense()) {
                    group.dense = DenseMessageStorage.open(file.blocks(), DENSE_LINKS,
                            info.fractalHeapAddress(), info.nameIndexAddress(),
                            info.creationOrderIndexAddress());
                }
            }
            if (message.type() == SymbolTableMessage.TYPE) {
                group.links = new TreeMap<>(SymbolTable.NAME_ORDER);
                group.symbolTable = SymbolTableMessage.decode(message.reader(
                        file.blocks().path(), "symbol table message"));
                for (LinkMessage link : SymbolTable.read(file.blocks(), group.symbolTable,
                        file.ranks())) {
                    group.links.put(link.name(), link);
                }
            }
            if (message.type() == LinkMessage.TYPE) {
                LinkMessage link = LinkMessage.decode(message.reader(file.blocks().path(),
                        "link message"));
                group.links.put(link.name(), link);
            }
        }
        group.readAttributes(messages);
        return group;
    }

    /**
     * Names of the links in this group: in the order they were stored when compact; when dense
     * (as h5py lists them), in creation order if the group indexes it, otherwise ordered by
     * the bytes of their UTF-8 names; in an old-style group (a symbol table) ordered so too,
     * links added since it was opened included.
     */
    public List<String> memberNames() throws IOException {
        List<String> names = new ArrayList<>();
        for (LinkMessage link : links()) {
            names.add(link.name());
        }
        return names;
    }

    /**
     * The members of this group, in {@link #memberNames()}'s order, from one pass over its
     * links: each opens the object its link leads to without a second lookup by name.
     */
    public List<Member> members() throws IOException {
        List<Member> members = new ArrayList<>();
        for (LinkMessage link : links()) {
            members.add(new Member(link));
        }
        return members;
    }

    /** A link of this group as {@link #members()} listed it. */
    public final class Member {
        private final LinkMessage link;

        private Member(LinkMessage link) {
            this.link = link;
        }

        public String name() {
            return link.name();
        }

        /**
         * The object the link leads to, through a soft link too.
         *
         * @throws UnsupportedFormatException an external link (not followed), or an object of a
         *                                    kind Quire does not read
         * @throws NoSuchElementException     a soft link to nothing
         */
        public Hdf5Object open() throws IOException {
            return member(link);
        }

        /** The path a soft link names, or null for a hard or external link. */
        public String softLinkTarget() {
            return link.softLinkTarget();
        }
    }

    /** The link messages of this group, in {@link #memberNames()}'s order. */
    List<LinkMessage> links() throws IOException {
        try {
            return dense != null ? dense.all() : new ArrayList<>(links.values());
        } catch (CorruptFileException e) {
            throw e.of(path());
        }
    }

    public boolean contains(String name) throws IOException {
        return link(name) != null;
    }

    /** The link {@code name}, looked up by name hash when the links are dense; or null. */
    LinkMessage link(String name) throws IOException {
        try {
            return dense != null ? dense.find(name) : links.get(name);
        } catch (CorruptFileException e) {
            throw e.of(path());
        }
    }

    /** The symbol table message of an old-style group read from a file, or null. */
    SymbolTableMessage symbolTable() {
        return symbolTable;
    }

    /** The dense link storage of a group read from a file, or null when compact. */
    DenseMessageStorage<BTreeV2LinkRecord, LinkMessage> denseLinks() {
        return dense;
    }

    /**
     * Adds a new, empty group {@code name}.
     *
     * @throws UnsupportedOperationException this group (read from a file) tracks the creation
     *                                       order of its links
     * @throws UncheckedIOException          reading the dense links of this group failed
     * @throws SwmrWriteRefusedException     the file is SWMR writing (every create method)
     */
    public Group createGroup(String name) {
        requireWritable();
        file.requireNotSwmrWriting("create group " + childPath(path(), name));
        checkNewName(name);
        Group group = create(file, childPath(path(), name));
        link(name, group, group.header);
        return group;
    }

    /**
     * Adds a new dataset {@code name} of {@code spec}.
     *
     * @throws UnsupportedOperationException as {@link #createGroup}
     */
    public Dataset createDataset(String name, DatasetSpec spec) {
        requireWritable();
        file.requireNotSwmrWriting("create dataset " + childPath(path(), name));
        checkNewName(name);
        Dataset dataset = Dataset.create(file, childPath(path(), name), spec);
        link(name, dataset, dataset.header);
        return dataset;
    }

    /**
     * A dataset written whole, now, as h5py's {@code create_dataset(name, data=...)} writes it
     * without chunks or filters: contiguous, {@code shape} empty for a scalar. It cannot grow
     * or be written again.
     *
     * @param elements the elements in row-major order, in the type's encoding
     * @throws IllegalArgumentException the bytes do not match the shape, or the type is a
     *                                  variable-length string ({@link #createStringDataset})
     */
    public Dataset createDataset(String name, Datatype type, long[] shape, byte[] elements)
            throws IOException {
        requireWritable();
        file.requireNotSwmrWriting("create dataset " + childPath(path(), name));
        checkNewName(name);
        if (type instanceof Datatype.VariableLengthStringType) {
            throw new IllegalArgumentException("variable-length strings are written with "
                    + "createStringDataset");
        }
        if (Shapes.elementCount(shape) * type.size() != elements.length) {
            throw new IllegalArgumentException(elements.length + " bytes for shape "
                    + Arrays.toString(shape) + " of " + type.size() + "-byte elements");
        }
        return linkNew(name, Dataset.createContiguous(file, childPath(path(), name), type,
                shape.clone(), elements.clone()));
    }

    /**
     * A dataset of variable-length UTF-8 strings written whole, now, as h5py writes a list of
     * {@code str} (a scalar for {@code shape} {@code []}): the strings in the global heap, the
     * elements contiguous.
     *
     * @throws IllegalArgumentException the number of strings does not match the shape
     */
    public Dataset createStringDataset(String name, long[] shape, List<String> strings)
            throws IOException {
        requireWritable();
        file.requireNotSwmrWriting("create dataset " + childPath(path(), name));
        checkNewName(name);
        if (Shapes.elementCount(shape) != strings.size()) {
            throw new IllegalArgumentException(strings.size() + " strings for shape "
                    + Arrays.toString(shape));
        }
        List<byte[]> bytes = new ArrayList<>();
        for (String string : strings) {
            bytes.add(string.getBytes(StandardCharsets.UTF_8));
        }
        GlobalHeap.Stored stored = file.globalHeap().store(bytes);
        try {
            Dataset dataset = Dataset.createContiguous(file, childPath(path(), name),
                    Datatype.VariableLengthStringType.UTF8, shape.clone(), stored.elements());
            // The elements, written at once, point at the collections: the header waits.
            stored.pointedAtBy(dataset.header, dataset.header.handleOf(DataLayoutMessage.TYPE));
            return linkNew(name, dataset);
        } finally {
            stored.release();
        }
    }

    /**
     * A virtual dataset of {@code shape} (which it keeps: its maximum shape is the same) whose
     * elements are those {@code mappings} show from datasets of this file, the others
     * {@code fillValue} (null: zero bytes), as h5py's {@code VirtualLayout} or versioned-hdf5
     * write one. Each mapping's selections are "all" or hyperslabs of as many elements, paired
     * in row-major order ({@link VirtualData}); the source datasets need not exist yet (missing
     * ones read as the fill value).
     *
     * @throws IllegalArgumentException a mapping names another file or a source dataset with a
     *     "%" not written "%%" (libhdf5 reads "%%" as "%" in these names), a virtual block lies
     *     outside the shape, two hyperslabs hold different numbers of elements, or a coordinate
     *     reaches 2^32 (libhdf5 1.10's selection encoding holds 32 bits); the fill value is not
     *     one element
     */
    public Dataset createVirtualDataset(String name, Datatype type, long[] shape,
                                        byte[] fillValue, List<VirtualMapping> mappings)
            throws IOException {
        requireWritable();
        file.requireNotSwmrWriting("create dataset " + childPath(path(), name));
        checkNewName(name);
        String where = file.blocks().path() + ": virtual dataset " + childPath(path(), name) + ": ";
        if (fillValue != null && fillValue.length != type.size()) {
            throw new IllegalArgumentException(where + "fill value of " + fillValue.length
                    + " bytes for a type of " + type.size());
        }
        for (VirtualMapping mapping : mappings) {
            checkMapping(where, mapping, shape);
        }
        return linkNew(name, Dataset.createVirtual(file, childPath(path(), name), type,
                shape.clone(), fillValue == null ? null : fillValue.clone(), List.copyOf(mappings)));
    }

    private static void checkMapping(String where, VirtualMapping mapping, long[] shape) {
        String what = where + "mapping from " + mapping.sourceDataset() + ": ";
        if (!mapping.sourceFile().equals(VirtualMapping.SAME_FILE)) {
            throw new IllegalArgumentException(what + "source file \"" + mapping.sourceFile()
                    + "\"; Quire maps datasets of the same file (\".\") only");
        }
        if (mapping.sourceDataset().isEmpty() || mapping.sourceDataset().indexOf(0) >= 0) {
            throw new IllegalArgumentException(what + "not a dataset path");
        }
        if (!VirtualMapping.percentsEscaped(mapping.sourceDataset())) {
            throw new IllegalArgumentException(what + "write \"%\" as \"%%\" in a source "
                    + "dataset name (libhdf5 reads a lone \"%\" as a printf-style specifier)");
        }
        if (!mapping.source().fitsVersion1() || !mapping.virtual().fitsVersion1()) {
            throw new IllegalArgumentException(what + "a coordinate at or beyond 2^32");
        }
        if (mapping.virtual() instanceof DataspaceSelection.Hyperslab virtual) {
            for (DataspaceSelection.Block block : virtual.blocks()) {
                long[] start = block.start();
                long[] count = block.count();
                boolean inside = start.length == shape.length;
                for (int d = 0; inside && d < shape.length; d++) {
                    inside = start[d] + count[d] <= shape[d];
                }
                if (!inside) {
                    throw new IllegalArgumentException(what + "virtual block " + block
                            + " outside the shape " + Arrays.toString(shape));
                }
            }
            if (mapping.source() instanceof DataspaceSelection.Hyperslab source
                    && elements(virtual) != elements(source)) {
                throw new IllegalArgumentException(what + "virtual blocks " + virtual.blocks()
                        + " hold " + elements(virtual) + " elements, source blocks "
                        + source.blocks() + " " + elements(source));
            }
        }
    }

    private static long elements(DataspaceSelection.Hyperslab selection) {
        long elements = 0;
        for (DataspaceSelection.Block block : selection.blocks()) {
            elements += Shapes.elementCount(block.count());
        }
        return elements;
    }

    private Dataset linkNew(String name, Dataset dataset) {
        link(name, dataset, dataset.header);
        return dataset;
    }

    /**
     * Deletes the link {@code name} (hard or soft) from this group, as h5py's {@code del
     * group[name]}: its link message becomes a null message; a group storing its links densely
     * first moves them into its header ({@link #storeLinksCompactly}); an old-style group
     * loses the entry and its heap strings ({@link SymbolTable#remove}). An object whose only
     * link it was is unreachable from then on; its space is not reused (libhdf5 frees it;
     * Quire leaks it, as h5repack would reclaim it). Objects of the deleted member handed out
     * before must not be used any more.
     *
     * @throws NoSuchElementException        there is no member {@code name}
     * @throws SwmrWriteRefusedException     the file is SWMR writing
     */
    public void delete(String name) throws IOException {
        requireWritable();
        file.requireNotSwmrWriting("delete " + childPath(path(), name));
        if (link(name) == null) {
            throw new NoSuchElementException(path() + " has no member \"" + name + "\"");
        }
        if (symbolTable != null) {
            try (SymbolTableBlocks blocks = symbolTableBlocks()) {
                SymbolTable.remove(blocks, symbolTable, file.ranks(), name, path());
            }
            links.remove(name);
            children.remove(name);
            return;
        }
        if (dense != null) {
            storeLinksCompactly();
        }
        List<HeaderMessage> messages = header.messages();
        for (int handle = 0; handle < messages.size(); handle++) {
            HeaderMessage message = messages.get(handle);
            if (message.type() == LinkMessage.TYPE && LinkMessage.decode(message.reader(
                    file.blocks().path(), "link message")).name().equals(name)) {
                header.remove(handle);
                links.remove(name);
                children.remove(name);
                return;
            }
        }
        throw new IllegalStateException(path() + ": no link message for \"" + name + "\"");
    }

    /**
     * Moves a dense group's links into its header (before a new link or a deletion), as libhdf5
     * does when a group shrinks below its minimum for dense storage: each link message as the fractal heap stores it (creation order
     * field included), in name order, in one new continuation block when they do not fit the
     * last chunk, and the link info message's addresses undefined. The heap and its B-trees
     * stay in the file, unreachable (their space is not reused).
     */
    private void storeLinksCompactly() throws IOException {
        List<DenseMessageStorage.Stored<LinkMessage>> stored;
        try {
            stored = dense.allStored();
        } catch (CorruptFileException e) {
            throw e.of(path());
        }
        int info = header.handleOf(LinkInfoMessage.TYPE);
        header.replace(info, LinkInfoMessage.withoutDenseStorage(
                header.messages().get(info).body()));
        List<HeaderMessage> messages = new ArrayList<>();
        int bytes = 0;
        for (DenseMessageStorage.Stored<LinkMessage> link : stored) {
            messages.add(HeaderMessage.of(LinkMessage.TYPE, 0, link.bytes()));
            bytes += messages.get(messages.size() - 1).storedSize();
        }
        header.reserve(bytes);  // one chunk for all: libhdf5 pays for every chunk it changes
        for (int i = 0; i < stored.size(); i++) {
            header.add(messages.get(i));
            links.put(stored.get(i).message().name(), stored.get(i).message());
        }
        dense = null;
    }

    /**
     * @throws NoSuchElementException there is no member {@code name}
     * @throws IllegalArgumentException {@code name} is a dataset
     */
    public Group group(String name) throws IOException {
        if (get(name) instanceof Group group) {
            return group;
        }
        throw new IllegalArgumentException(childPath(path(), name) + " is not a group");
    }

    /**
     * @throws NoSuchElementException there is no member {@code name}
     * @throws IllegalArgumentException {@code name} is a group
     */
    public Dataset dataset(String name) throws IOException {
        if (get(name) instanceof Dataset dataset) {
            return dataset;
        }
        throw new IllegalArgumentException(childPath(path(), name) + " is not a dataset");
    }

    /**
     * The object {@code name} links to, following a soft link (its path is then the target's).
     *
     * @throws NoSuchElementException there is no member {@code name}, or it is a soft link to
     *                                nothing
     * @throws UnsupportedFormatException an external link, or an object Quire does not read
     */
    public Hdf5Object get(String name) throws IOException {
        file.requireOpen();
        Hdf5Object child = children.get(name);
        if (child != null) {
            return child;
        }
        LinkMessage link = link(name);
        if (link == null) {
            throw new NoSuchElementException(path() + " has no member \"" + name + "\"");
        }
        return member(link);
    }

    /** The group or dataset {@code link}, one of this group's links, leads to. */
    Hdf5Object member(LinkMessage link) throws IOException {
        Hdf5Object child = children.get(link.name());
        if (child != null) {
            return child;
        }
        if (link.type() == LinkMessage.SOFT) {
            return follow(link, childPath(path(), link.name()), new SoftLinkBudget());
        }
        if (link.type() != LinkMessage.HARD) {
            throw new UnsupportedFormatException(file.blocks().path(), "link",
                    UnsupportedFormatException.NO_OFFSET, (link.type() == LinkMessage.EXTERNAL
                            ? "an external link" : "a link") + " (type " + link.type() + ")",
                    "hard and soft links (types " + LinkMessage.HARD + " and "
                            + LinkMessage.SOFT + ")").within(childPath(path(), link.name()));
        }
        child = file.readObject(childPath(path(), link.name()), link.address());
        children.put(link.name(), child);
        return child;
    }

    /** Soft links one resolution may still follow: one count shared by every nested link. */
    private static final class SoftLinkBudget {
        private int left = MAX_SOFT_LINKS;
    }

    /**
     * The object the soft link {@code link} of this group names: its path, absolute or relative
     * to this group, walked link by link; every soft link followed on the way, however deeply
     * nested, spends {@code budget}, so a resolution takes at most {@link #MAX_SOFT_LINKS}
     * walks. {@code where} is the path the user asked for, named in errors.
     */
    private Hdf5Object follow(LinkMessage link, String where, SoftLinkBudget budget)
            throws IOException {
        String target = link.softLinkTarget();
        if (budget.left == 0) {
            throw new UnsupportedFormatException(file.blocks().path(), "soft link",
                    UnsupportedFormatException.NO_OFFSET, "more than " + MAX_SOFT_LINKS
                            + " soft links to follow (reached " + childPath(path(), link.name())
                            + " -> " + target + ")",
                    "at most " + MAX_SOFT_LINKS + " soft links in one resolution, as libhdf5")
                    .within(where);
        }
        budget.left--;
        Hdf5Object object = target.startsWith("/") ? file.root() : this;
        for (String part : target.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            LinkMessage next = object instanceof Group group ? group.link(part) : null;
            if (next == null) {
                throw new NoSuchElementException(where + " is a soft link to " + target
                        + ", which does not exist");
            }
            Group group = (Group) object;
            object = next.type() == LinkMessage.SOFT ? group.follow(next, where, budget)
                    : group.member(next);
        }
        return object;
    }

    /**
     * Links the new {@code child}: a link message in this header, written only after the
     * child's; or, in an old-style group, an entry in its symbol table caching nothing (the
     * child has a version-2 header, as libhdf5 writes for its own new-style groups there).
     */
    private void link(String name, Hdf5Object child, WritableObjectHeader childHeader) {
        LinkMessage link = LinkMessage.hard(name, childHeader.address());
        if (symbolTable != null) {
            try (SymbolTableBlocks blocks = symbolTableBlocks()) {
                SymbolTable.insert(blocks, symbolTable, file.ranks(), name,
                        offset -> SymbolTableEntry.hardLink(offset, childHeader.address()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            header.add(HeaderMessage.of(LinkMessage.TYPE, 0, link.encode()));
            file.cache().createFlushDependency(header.address(), childHeader.address());
        }
        links.put(name, link);
        children.put(name, child);
    }

    private SymbolTableBlocks symbolTableBlocks() {
        return new SymbolTableBlocks(file.blocks(), file.cache(), file.ranks().groupLeafNodeK());
    }

    private void checkNewName(String name) {
        if (name.isEmpty() || name.contains("/") || name.equals(".")) {
            throw new IllegalArgumentException("not a link name: \"" + name + "\"");
        }
        if (symbolTable != null && name.indexOf(0) >= 0) {
            throw new IllegalArgumentException("not a link name for " + path() + ", an "
                    + "old-style group (its local heap holds names up to a NUL): \""
                    + name.replace("\0", "\\0") + "\"");
        }
        try {
            if (link(name) != null) {
                throw new IllegalArgumentException(path() + " already has a member \"" + name
                        + "\"");
            }
            requireCreationOrderUntracked(name);
            if (dense != null) {
                storeLinksCompactly();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Refuses a new link in a group tracking link creation order (libhdf5 numbers every new
     * link there; Quire's link messages carry no creation order). h5py's {@code
     * track_order=True} groups are refused earlier, at the reopening.
     */
    private void requireCreationOrderUntracked(String name) {
        int info = header.handleOf(LinkInfoMessage.TYPE);
        if (info >= 0 && LinkInfoMessage.tracksCreationOrder(header.messages().get(info).body())) {
            throw new UnsupportedOperationException(file.blocks().path() + ": cannot add \""
                    + name + "\" to group " + path() + ": it tracks link creation order; Quire "
                    + "adds links to groups that do not");
        }
    }
}
