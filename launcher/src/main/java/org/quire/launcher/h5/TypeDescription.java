package org.quire.launcher.h5;

import java.nio.ByteOrder;
import java.util.StringJoiner;

import org.quire.format.hdf5.Datatype;

/**
 * A datatype in one short line: {@code int32 LE}, {@code uint8}, {@code float64 BE},
 * {@code string[16] nullterm ascii}, {@code string[variable] nullterm utf8},
 * {@code enum int8 {FALSE=0, TRUE=1}}, {@code compound[12] {x: int32 LE @0, y: float64 LE @4}},
 * {@code array[2][3] of int32 LE}.
 */
final class TypeDescription {

    private TypeDescription() {
    }

    static String of(Datatype type) {
        if (type instanceof Datatype.IntegerType integer) {
            return (integer.signed() ? "int" : "uint") + integer.size() * 8 + order(integer);
        }
        if (type instanceof Datatype.FloatType real) {
            return "float" + real.size() * 8 + order(real);
        }
        if (type instanceof Datatype.StringType string) {
            return "string[" + string.size() + "] " + padding(string.padding())
                    + (string.utf8() ? " utf8" : " ascii");
        }
        if (type instanceof Datatype.VariableLengthStringType string) {
            return "string[variable] " + padding(string.padding())
                    + (string.utf8() ? " utf8" : " ascii");
        }
        if (type instanceof Datatype.EnumType enumeration) {
            StringJoiner members = new StringJoiner(", ", "{", "}");
            for (Datatype.EnumMember member : enumeration.members()) {
                members.add(ValueFormat.name(member.name()) + "=" + member.value());
            }
            return "enum " + of(enumeration.base()) + " " + members;
        }
        if (type instanceof Datatype.ArrayType array) {
            StringBuilder dimensions = new StringBuilder();
            for (long dimension : array.dimensions()) {
                dimensions.append('[').append(dimension).append(']');
            }
            return "array" + dimensions + " of " + of(array.base());
        }
        Datatype.CompoundType compound = (Datatype.CompoundType) type;
        StringJoiner members = new StringJoiner(", ", "{", "}");
        for (Datatype.Member member : compound.members()) {
            members.add(ValueFormat.name(member.name()) + ": " + of(member.type()) + " @"
                    + member.offset());
        }
        return "compound[" + compound.size() + "] " + members;
    }

    private static String padding(Datatype.StringPadding padding) {
        return switch (padding) {
            case NULL_TERMINATED -> "nullterm";
            case NULL_PADDED -> "nullpad";
            case SPACE_PADDED -> "spacepad";
        };
    }

    /** The byte order of a multi-byte number; a single byte has none. */
    private static String order(Datatype type) {
        if (type.size() == 1) {
            return "";
        }
        return type.byteOrder() == ByteOrder.LITTLE_ENDIAN ? " LE" : " BE";
    }
}
