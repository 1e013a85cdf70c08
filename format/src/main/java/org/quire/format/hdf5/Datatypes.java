package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.DatatypeDescription;
import org.quire.format.hdf5.layout.DatatypeMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.LittleEndianReader;
import org.quire.format.hdf5.layout.SharedMessage;
import org.quire.format.hdf5.layout.StoredReferences;

/**
 * Converts between the API's {@link Datatype} and the {@link DatatypeDescription} a datatype
 * message holds.
 */
final class Datatypes {

    private Datatypes() {
    }

    /**
     * The datatype of the datatype message {@code in} holds.
     *
     * @throws CorruptFileException the message describes no valid datatype (a size or member
     *                              offset out of range)
     */
    static Datatype decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        DatatypeDescription description = DatatypeMessage.decode(in);
        try {
            return of(description);
        } catch (IllegalArgumentException e) {
            throw in.corrupt(at, "datatype", "a valid datatype", e.getMessage());
        }
    }

    /**
     * The datatype of the datatype message {@code message}, or, when it is shared, of the
     * committed datatype it names ({@code references} resolves it).
     */
    static Datatype decode(HeaderMessage message, Path file, StoredReferences references)
            throws IOException {
        LittleEndianReader in = message.reader(file, "datatype message");
        if ((message.flags() & HeaderMessage.FLAG_SHARED) == 0) {
            return decode(in);
        }
        long at = in.absolutePosition();
        DatatypeDescription committed = references.committedDatatype(
                SharedMessage.objectHeaderAddress(in));
        try {
            return of(committed);
        } catch (IllegalArgumentException e) {
            throw in.corrupt(at, "committed datatype", "a valid datatype", e.getMessage());
        }
    }

    static byte[] encode(Datatype type) {
        return DatatypeMessage.encode(describe(type));
    }

    /**
     * The datatype {@code description} describes.
     *
     * @throws IllegalArgumentException it is no valid datatype
     */
    static Datatype of(DatatypeDescription description) {
        if (description instanceof DatatypeDescription.FixedPoint integer) {
            return new Datatype.IntegerType(integer.size(), integer.signed(),
                    integer.byteOrder());
        }
        if (description instanceof DatatypeDescription.FloatingPoint real) {
            return new Datatype.FloatType(real.size(), real.byteOrder());
        }
        if (description instanceof DatatypeDescription.FixedString string) {
            return new Datatype.StringType(string.size(), padding(string.padding()),
                    string.utf8());
        }
        if (description instanceof DatatypeDescription.VariableLengthString string) {
            return new Datatype.VariableLengthStringType(padding(string.padding()),
                    string.utf8());
        }
        if (description instanceof DatatypeDescription.Enumeration enumeration) {
            Datatype.IntegerType base = (Datatype.IntegerType) of(enumeration.base());
            List<Datatype.EnumMember> members = new ArrayList<>();
            for (DatatypeDescription.EnumMember member : enumeration.members()) {
                members.add(new Datatype.EnumMember(member.name(), base.decode(member.value(), 0)));
            }
            return new Datatype.EnumType(base, members);
        }
        if (description instanceof DatatypeDescription.Array array) {
            return new Datatype.ArrayType(of(array.base()), array.dimensions());
        }
        DatatypeDescription.Compound compound = (DatatypeDescription.Compound) description;
        List<Datatype.Member> members = new ArrayList<>();
        for (DatatypeDescription.Member member : compound.members()) {
            members.add(new Datatype.Member(member.name(), member.offset(), of(member.type())));
        }
        return new Datatype.CompoundType(compound.size(), members);
    }

    static DatatypeDescription describe(Datatype type) {
        if (type instanceof Datatype.IntegerType integer) {
            return new DatatypeDescription.FixedPoint(integer.size(), integer.signed(),
                    integer.byteOrder());
        }
        if (type instanceof Datatype.FloatType real) {
            return new DatatypeDescription.FloatingPoint(real.size(), real.byteOrder());
        }
        if (type instanceof Datatype.StringType string) {
            return new DatatypeDescription.FixedString(string.size(),
                    paddingCode(string.padding()), string.utf8());
        }
        if (type instanceof Datatype.VariableLengthStringType string) {
            return new DatatypeDescription.VariableLengthString(paddingCode(string.padding()),
                    string.utf8());
        }
        if (type instanceof Datatype.EnumType enumeration) {
            List<DatatypeDescription.EnumMember> members = new ArrayList<>();
            for (Datatype.EnumMember member : enumeration.members()) {
                members.add(new DatatypeDescription.EnumMember(member.name(),
                        enumeration.base().encode(member.value())));
            }
            return new DatatypeDescription.Enumeration(
                    (DatatypeDescription.FixedPoint) describe(enumeration.base()),
                    List.copyOf(members));
        }
        if (type instanceof Datatype.ArrayType array) {
            return new DatatypeDescription.Array(describe(array.base()), array.dimensions());
        }
        Datatype.CompoundType compound = (Datatype.CompoundType) type;
        List<DatatypeDescription.Member> members = new ArrayList<>();
        for (Datatype.Member member : compound.members()) {
            members.add(new DatatypeDescription.Member(member.name(), member.offset(),
                    describe(member.type())));
        }
        return new DatatypeDescription.Compound(compound.size(), List.copyOf(members));
    }

    /** The string padding of message code {@code code} (0, 1 or 2; DatatypeMessage checks). */
    private static Datatype.StringPadding padding(int code) {
        return switch (code) {
            case 0 -> Datatype.StringPadding.NULL_TERMINATED;
            case 1 -> Datatype.StringPadding.NULL_PADDED;
            case 2 -> Datatype.StringPadding.SPACE_PADDED;
            default -> throw new IllegalArgumentException("string padding " + code);
        };
    }

    private static int paddingCode(Datatype.StringPadding padding) {
        return switch (padding) {
            case NULL_TERMINATED -> 0;
            case NULL_PADDED -> 1;
            case SPACE_PADDED -> 2;
        };
    }
}
